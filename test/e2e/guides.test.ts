/**
 * The guides cannot rot: every guide of docs/guides/ and the README's tour run as a reader would, against a
 * fresh local runtime with the demo tenant (`npm start` with its seed, in memory), and what they show must be
 * what the commands print (test/support/guides.ts). The Python and Ruby SDK READMEs' quick starts run against
 * the same runtime. Ports are free ones, passed in the variables the guides read.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guideBlocks, logShows, runGuide, showsOutput } from '../support/guides';
import { spawnRuntime } from '../support/runtime-process.mjs';
import { eventually, scheduledRunLateMs, settlesTo } from '../support/api';
import { ensureReceiverTls } from '../../scripts/receiver-tls';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDES = join(ROOT, 'docs/guides');
const guideFiles = readdirSync(GUIDES)
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .sort()
  .map((f) => join(GUIDES, f));

/** The environment of the runtime: what the HTTPS endpoints guide restarts `npm start` with, and the demo. */
const RUNTIME_ENV = {
  NODE_EXTRA_CA_CERTS: '.local/tls/ca.pem',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_DELAYS: '2,2,2,2,2',
  // The WhatsApp business guide watches template reviews, scheduled messages and reminders go.
  BUSINESS_SCHEDULER_INTERVAL_SECONDS: '2',
};

let runtime: ChildProcess;
let exported: Record<string, string>;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  // The receiver's CA must exist before the runtime starts: Node reads NODE_EXTRA_CA_CERTS once.
  ensureReceiverTls();
  const started = await spawnRuntime(
    {
      ...RUNTIME_ENV,
      SEED_DEMO: 'true',
      DATA_DIR: '',
      DASHBOARD_BUILD: 'false',
      LOG_LEVEL: 'error',
      PLATFORM_TOKEN: `pt_guides_${Math.random().toString(36).slice(2)}`,
      // Under the chaos mode: a transaction cancelled by a conflict or throttling, or a call throttled past
      // the SDK's retries, is answered 503 with Retry-After, which a client retries; the guides' bare curl
      // does not, so those faults are off here (every other fault stays on, and the guides wait for lists
      // as a reader must).
      // A delivery whose dispatcher timed out is left to the sweeper: under chaos it sweeps as often as the
      // shared runtime's (test/support/global-setup.mjs), so the guides' waits for deliveries hold.
      ...(process.env.CHAOS
        ? {
            CHAOS_FAULTS: 'txConflict=0,txThrottle=0,throttle=0',
            SWEEP_INTERVAL_SECONDS: '2',
            WEBHOOK_SWEEP_GRACE_SECONDS: '8',
          }
        : {}),
    },
    { timeoutMs: 240_000 },
  );
  runtime = started.child;
  // The one line `npm start` prints for the guides.
  const line = /^export (API=.*)$/m.exec(started.output())?.[1];
  if (!line) throw new Error(`npm start printed no export line:\n${started.output()}`);
  exported = Object.fromEntries(line.split(' ').map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
}, 300_000);

afterAll(() => {
  runtime?.kill('SIGTERM');
});

describe('the runner', () => {
  it('reads commands, background commands and outputs, and matches outputs with … and whitespace aside', () => {
    const blocks = guideBlocks(
      '```bash\necho hi\n```\n\n```text output\nhi\n```\n```bash background srv\nserve\n```\n```json\n{}\n```\n',
    );
    expect(blocks.map((b) => [b.kind, b.name ?? ''])).toEqual([
      ['run', ''],
      ['output', ''],
      ['background', 'srv'],
    ]);
    expect(showsOutput('{ "id": "conv_…", "n": 1 }', '{"id":"conv_01ABC","n":1}')).toBe(true);
    expect(showsOutput('{ "id": "conv_…", "n": 1 }', '{"id":"conv_01ABC","n":2}')).toBe(false);
    expect(showsOutput('a', 'ab')).toBe(false);
    expect(showsOutput('b', 'ab', true)).toBe(true);
    expect(showsOutput('a…b', 'abab')).toBe(true);
    expect(showsOutput('a…b…c', 'acb')).toBe(false);
    expect(showsOutput('… x … -> 204', 'log: x 1 -> 204\nlog: y 2 -> 500', true)).toBe(true);
    // A long log that does not show the lines: answered at once (a regular expression backtracked for minutes).
    const log = 'conversation.created evt_1 not verified -> 500\n'.repeat(2000);
    expect(showsOutput('… conversation.… evt_… -> 204\n… conversation.… evt_… -> 204', log, true)).toBe(false);
    expect(logShows('… conversation.… evt_… -> 204\n… conversation.… evt_… -> 204', log)).toBe(false);
    // A background command's lines in any order, each expected line on a log line of its own.
    const deliveries = 'x booking.created evt_2 -> 204\nx payment.succeeded evt_3 -> 204\n';
    expect(logShows('… payment.succeeded evt_… -> 204\n… booking.created evt_… -> 204', deliveries)).toBe(true);
    expect(logShows('… -> 204\n… -> 204\n… -> 204', deliveries)).toBe(false);
  });
});

/** A read of the demo tenant, with the API key `npm start` printed. */
const demoGet = async (path: string) =>
  (
    await fetch(`${exported.API}${path}`, {
      headers: { Authorization: `Bearer ${exported.KEY}`, 'X-Tenant-ID': exported.TENANT! },
    })
  ).json() as Promise<{ data: Record<string, unknown>[] } & Record<string, unknown>>;

describe('the demo tenant', () => {
  it('has a working day: conversations, a handoff, bookings, saved replies and an agent', async () => {
    const get = demoGet;
    // Lists are eventually consistent: the seed's last conversations may take a moment to show.
    const names = (page: { data: Record<string, unknown>[] }) =>
      page.data.map((c) => (c.customer as { name: string }).name);
    const conversations = (
      await eventually(
        () => get('/conversations?limit=50'),
        (page) =>
          ['Sam Taylor', 'Jonas Weber', 'Maria Lopez'].every((name) => names(page).includes(name)) &&
          page.data.some((c) => c.status === 'resolved'),
      )
    ).data;
    expect(conversations.map((c) => (c.customer as { name: string }).name)).toEqual(
      expect.arrayContaining(['Sam Taylor', 'Jonas Weber', 'Maria Lopez']),
    );
    expect(conversations.find((c) => c.status === 'resolved')).toBeDefined();
    await eventually(
      () => get('/bookings'),
      (page) => page.data.length >= 2,
    );
    await settlesTo(
      async () => (await get('/saved-replies')).data.map((r) => r.shortcut),
      ['confirm', 'hours', 'sorry'],
    );
    await settlesTo(async () => (await get('/users')).data.map((u) => u.role).sort(), ['admin', 'agent']);
    await settlesTo(async () => (await get('/schedules')).data.map((s) => s.resource_id), ['room-1']);
  });

  it('has bookings of the one resource that never overlap, one of them with its deposit paid', async () => {
    // Lists are eventually consistent: the seed's last changes may take a moment to show.
    const bookings = (
      await eventually(
        () => demoGet('/bookings?limit=100'),
        (page) =>
          (page.data as { resource_id: string | null; status: string; payment: { purpose: string } | null }[]).some(
            (b) => b.resource_id === 'room-1' && b.payment?.purpose === 'deposit' && b.status === 'confirmed',
          ) && (page.data as { resource_id: string | null }[]).filter((b) => b.resource_id === 'room-1').length >= 3,
      )
    ).data as {
      id: string;
      resource_id: string | null;
      start_at: string;
      end_at: string;
      status: string;
      payment: { id: string; purpose: string } | null;
    }[];
    const ofRoom = bookings.filter((b) => b.resource_id === 'room-1');
    expect(ofRoom.length).toBeGreaterThanOrEqual(3);
    for (const a of ofRoom)
      for (const b of ofRoom) if (a !== b) expect(a.end_at <= b.start_at || b.end_at <= a.start_at).toBe(true);
    const withDeposit = ofRoom.find((b) => b.payment?.purpose === 'deposit');
    expect(withDeposit?.status).toBe('confirmed');
    expect(await demoGet(`/payments/${withDeposit!.payment!.id}`)).toMatchObject({
      status: 'succeeded',
      booking_id: withDeposit!.id,
    });
  });

  it('has a conversation with a customer\u2019s photo, stored and downloadable', async () => {
    const conversations = (
      await eventually(
        () => demoGet('/conversations?limit=50'),
        (page) => (page.data as { customer: { name: string } }[]).some((c) => c.customer.name === 'Priya Shah'),
      )
    ).data as {
      id: string;
      customer: { name: string };
    }[];
    const withPhoto = conversations.find((c) => c.customer.name === 'Priya Shah');
    expect(withPhoto).toBeDefined();
    type Media = { type: string; status: string; mime_type: string; download_url: string | null };
    const messages = (
      await eventually(
        () => demoGet(`/conversations/${withPhoto!.id}/messages`),
        (page) => (page.data as { media: Media | null }[]).some((m) => m.media?.status === 'stored'),
      )
    ).data as { media: Media | null }[];
    const photo = messages.find((m) => m.media?.type === 'image')?.media;
    expect(photo).toMatchObject({ status: 'stored', mime_type: 'image/png' });
    const download = await fetch(photo!.download_url!);
    expect(download.status).toBe(200);
    // The PNG signature: the stored bytes are the photo's.
    expect([...new Uint8Array(await download.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it(
    'has a sandbox template, approved by the sandbox within moments of the start',
    async () => {
      const demoTemplate = async () =>
        ((await demoGet('/templates')).data as { name: string; status: string }[]).find(
          (t) => t.name === 'booking_reminder',
        );
      expect(await demoTemplate()).toBeDefined();
      // The business scheduler reviews it; under the chaos mode a timed-out run's lease delays the next.
      const approved = await eventually(demoTemplate, (t) => t?.status === 'approved', 30_000 + scheduledRunLateMs());
      expect(approved).toMatchObject({ status: 'approved', channel: 'sandbox', language: 'en' });
    },
    60_000 + scheduledRunLateMs(),
  );
});

describe('guides', () => {
  it.each([join(ROOT, 'README.md'), ...guideFiles].map((file) => [file.slice(ROOT.length), file]))(
    '%s works as written',
    async (_name, file) => {
      const env = {
        ...exported,
        HOOK_PORT: String(await freePort()),
        RECEIVER_PORT: String(await freePort()),
        VERIFIER_PORT: String(await freePort()),
      };
      const { failures } = await runGuide(file, { cwd: ROOT, env, runtimeEnv: RUNTIME_ENV, waitMs: 90_000 });
      expect(failures).toEqual([]);
    },
    300_000,
  );
});

/** The first example of an SDK README in `language`. */
const firstExample = (readme: string, language: string) =>
  new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(readFileSync(join(ROOT, readme), 'utf8'))![1]!;

const sdkEnv = () => ({
  ...process.env,
  MESSAGING_API_KEY: exported.KEY,
  MESSAGING_TENANT_ID: exported.TENANT,
  MESSAGING_BASE_URL: exported.API!.replace(/\/api\/v1$/, ''),
});

/** An interpreter with httpx (Debian's when the first python3 on PATH lacks it). */
const python = ['python3', '/usr/bin/python3'].find(
  (p) => spawnSync(p, ['-c', 'import httpx'], { encoding: 'utf8' }).status === 0,
);

describe('SDK README quick starts', () => {
  it('Python: sends, then lists the open conversations', () => {
    if (!python) throw new Error('python3 with httpx is needed: apt-get install python3-httpx');
    const run = spawnSync(python, ['-c', firstExample('sdks/python/README.md', 'python')], {
      env: { ...sdkEnv(), PYTHONPATH: join(ROOT, 'sdks/python/src') },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^conv_\w+ Maria \d{4}-\d\d-\d\dT/m);
  });

  it('Ruby: sends, then lists the open conversations', () => {
    const run = spawnSync(
      'ruby',
      ['-I', join(ROOT, 'sdks/ruby/lib'), '-e', firstExample('sdks/ruby/README.md', 'ruby')],
      {
        env: sdkEnv(),
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^conv_\w+ Maria \d{4}-\d\d-\d\dT/m);
  });
});
