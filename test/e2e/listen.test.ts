/**
 * `npm run listen` (the TypeScript SDK's command line): a live event reaches a local HTTP server, signed
 * so that the public `standardwebhooks` library verifies it with the secret the listener prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { authOf, call, createTenant, eventually, type TestTenant } from '../support/api';
import { testRuntime } from '../support/runtime';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

let t: TestTenant;
let server: Server;
let hookUrl: string;
const received: Received[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTenant();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((ok) => server.close(ok));
});

/** Starts `listen` with the environment `npm start` prints; resolves with the process and its output so far. */
function startListen(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sdks/typescript/src/cli.ts', 'listen', ...args], {
    env: { ...process.env, API: `${testRuntime().url}/api/v1`, TENANT: t.tenantId, KEY: t.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

describe('listen', () => {
  it('forwards a live event, signed so that the standardwebhooks library verifies it, and prints it in one line', async () => {
    const listener = startListen(['--forward-to', hookUrl, '--events', 'conversation.*']);
    const ready = await eventually(
      async () => listener.output(),
      (out) => /Ready: /.test(out) || /listen: /.test(out),
      30_000,
    );
    expect(ready).toMatch(/Ready: forwarding conversation\.\* to http:\/\/127\.0\.0\.1:\d+\/hook/);
    const secret = /signed with (whsec_\S+)/.exec(ready)![1]!;

    const inbound = await call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: { from: '+4915199900011', name: 'Lena', text: 'Is Saturday free?' },
    });
    expect(inbound.status).toBe(201);
    const conversationId = inbound.body.conversation.id as string;

    await eventually(
      async () => received.length,
      (n) => n >= 2,
      20_000,
    );
    const verifier = new Webhook(secret);
    const events = received.map(
      ({ body, headers }) =>
        verifier.verify(body, headers as Record<string, string>) as {
          id: string;
          type: string;
          data: { conversation: { id: string } };
        },
    );
    // Two items' events come from two stream shards, so they may be delivered in either order.
    expect(events.map((e) => e.type).sort()).toEqual(['conversation.created', 'conversation.message.received']);
    const created = events.findIndex((e) => e.type === 'conversation.created');
    expect(events[created]!.data.conversation.id).toBe(conversationId);
    // The forwarded body is the event as GET /events/{id} gives it.
    const stored = await call('GET', `/events/${events[created]!.id}`, authOf(t));
    expect(JSON.parse(received[created]!.body)).toEqual(stored.body);
    // An altered body fails verification: the signature covers it.
    expect(() =>
      verifier.verify(
        received[created]!.body.replace('Lena', 'Mara'),
        received[created]!.headers as Record<string, string>,
      ),
    ).toThrow();

    const lines = await eventually(
      async () => listener.output(),
      (out) => out.includes('conversation.message.received'),
    );
    expect(lines).toMatch(
      new RegExp(
        `conversation\\.created  evt_\\w+  -> POST ${hookUrl.replace(/\./g, '\\.')} 204 No Content \\(\\d+ ms\\)`,
      ),
    );
  }, 90_000);

  it('prints the same secret for the same API key, and refuses a missing --forward-to', async () => {
    const printed = async (args: string[]) => {
      const run = startListen(args);
      const code = await new Promise<number | null>((ok) => run.child.once('exit', ok));
      return { code, output: run.output().trim() };
    };
    const first = await printed(['--print-secret']);
    const second = await printed(['--print-secret']);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(second.output).toBe(first.output);
    const missing = await printed([]);
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/--forward-to must be an http\(s\) URL/);
  });
});
