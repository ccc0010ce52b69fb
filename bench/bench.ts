/**
 * `npm run bench`: the project's figures. For every handler: its bundle as the stack builds it (and
 * without @aws-sdk), and its cold module-load time in a fresh Node process. Then the DynamoDB round
 * trips of authenticated requests, measured through the local runtime, the webhook delivery figures and
 * the AI evaluation. `npm run bench -- --help` prints what it measures (HELP below).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLING } from '../spec/bundling';
import { ROUTES } from '../spec/routes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.bench');
/** AI handlers carry the local model (about 1 MB of data, parsed on first use): their own bundle budget. */
const TARGETS = { bundleKb: 150, aiBundleKb: 1600, loadMs: 50, modelLoadMs: 100, roundTrips: 3 };

const HELP = `usage: npm run bench [-- --help]

Prints the project's figures, each against its target:
  1. handler bundles: each route's esbuild bundle as the stack builds it, and without @aws-sdk
     (<= ${TARGETS.bundleKb} KB, AI handlers <= ${TARGETS.aiBundleKb} KB), and its cold module-load time in a fresh
     Node process (<= ${TARGETS.loadMs} ms); then the local AI model's cold load and first analysis
     (<= ${TARGETS.modelLoadMs} ms);
  2. DynamoDB round trips and capacity units of authenticated requests, through a local runtime it starts
     itself on a free port (GET /api-keys <= ${TARGETS.roundTrips} round trips);
  3. webhook delivery: deliveries per second from one worker process to a local HTTPS receiver, and event
     to first attempt latency through the local runtime;
  4. AI quality and latency, as npm run eval:ai prints them.

It takes no other options, needs Java 17+ (DynamoDB Local) and openssl (a throwaway certificate for the
webhook receiver), leaves bundles in .bench/, and takes a few minutes.

  -h, --help   print this help`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`bench: unknown argument ${args[0]}\n\n${HELP}`);
  process.exit(1);
}

async function bundle(handler: string, withSdk: boolean): Promise<string> {
  const outfile = join(OUT, withSdk ? 'full' : 'no-sdk', `${handler.replace('/', '__')}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'functions', `${handler}.ts`)],
    bundle: true,
    outfile,
    format: BUNDLING.format,
    platform: BUNDLING.platform,
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    treeShaking: BUNDLING.treeShaking,
    sourcemap: BUNDLING.sourcemap,
    sourcesContent: BUNDLING.sourcesContent,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    external: withSdk ? BUNDLING.external : ['@aws-sdk/*', '@smithy/*'],
    logLevel: 'error',
  });
  return outfile;
}

/** Median of five fresh `node` processes, each timing only the import of the bundle (or `measure`). */
function coldLoadMs(
  file: string,
  measure = `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`,
): number {
  const script = measure;
  const runs = Array.from({ length: 5 }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
      })
        .toString()
        .trim(),
    ),
  );
  return runs.sort((a, b) => a - b)[2] ?? NaN;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const mark = (ok: boolean) => (ok ? 'ok' : 'OVER');

async function bundles() {
  mkdirSync(OUT, { recursive: true });
  console.log('\nHandler bundles (esbuild, as the stack bundles them) and cold module load');
  console.log(`target: <= ${TARGETS.bundleKb} KB without @aws-sdk, <= ${TARGETS.loadMs} ms to load\n`);
  console.log(
    ['route'.padEnd(18), 'bundle KB'.padStart(10), 'no-SDK KB'.padStart(10), 'load ms'.padStart(8), ''].join(' '),
  );
  let worst = { kb: 0, ms: 0 };
  for (const route of ROUTES) {
    const full = await bundle(route.handler, true);
    const lean = await bundle(route.handler, false);
    const sizes = { full: kb(statSync(full).size), lean: kb(statSync(lean).size) };
    const ms = Math.round(coldLoadMs(full) * 10) / 10;
    worst = { kb: worst.kb, ms: Math.max(worst.ms, ms) };
    const budget = route.ai ? TARGETS.aiBundleKb : TARGETS.bundleKb;
    if (!route.ai) worst.kb = Math.max(worst.kb, sizes.lean);
    console.log(
      [
        route.id.padEnd(18),
        String(sizes.full).padStart(10),
        String(sizes.lean).padStart(10),
        String(ms).padStart(8),
        `${mark(sizes.lean <= budget)}/${mark(ms <= TARGETS.loadMs)}`,
      ].join(' '),
    );
  }
  console.log(
    `\nlargest without SDK (AI handlers aside, budget ${TARGETS.aiBundleKb} KB): ${worst.kb} KB; slowest load: ${worst.ms} ms`,
  );
  // The local AI model in a fresh process: parse the shipped snapshot and classify the first message.
  const model = await bundle('ai/local/provider', false);
  const firstUse = coldLoadMs(
    model,
    `const m=await import(${JSON.stringify(model)});const t=performance.now();m.classifyLocally('hello, can I book a haircut?');console.log(performance.now()-t)`,
  );
  console.log(
    `local AI model cold load + first analysis: ${Math.round(firstUse * 10) / 10} ms (target <= ${TARGETS.modelLoadMs} ms) ${mark(firstUse <= TARGETS.modelLoadMs)}`,
  );
}

async function roundTrips() {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const { startLocalRuntime } = await import('../local/runtime');
  const runtime = await startLocalRuntime({ port: 0, seedDemo: true, logLevel: 'error' });
  try {
    const { dbStats } = await import('../functions/platform/db');
    const demo = runtime.demo;
    if (!demo) throw new Error('no demo tenant');
    dbStats.captureCapacity = true;
    const measure = async (label: string, init: RequestInit, path: string) => {
      const before = { calls: dbStats.calls, byCommand: { ...dbStats.byCommand }, capacity: dbStats.capacityUnits };
      const res = await fetch(`${runtime.url}/api/v1${path}`, init);
      const text = await res.text();
      const commands = Object.entries(dbStats.byCommand)
        .map(([name, n]) => [name.replace('Command', ''), n - (before.byCommand[name] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${name}×${n}`)
        .join(' ');
      const calls = dbStats.calls - before.calls;
      const units = Math.round((dbStats.capacityUnits - before.capacity) * 10) / 10;
      console.log(
        `${label.padEnd(56)} ${String(res.status).padStart(4)} ${String(calls).padStart(3)} ${String(units).padStart(6)}  ${commands}`,
      );
      return text;
    };
    const keyHeaders = { 'X-Tenant-ID': demo.tenantId, Authorization: `Bearer ${demo.apiKey}` };
    console.log(
      `\nDynamoDB round trips and capacity units per request (GET /api-keys target: <= ${TARGETS.roundTrips} round trips)\n`,
    );
    console.log(`${'request'.padEnd(56)} ${'code'.padStart(4)} ${'rt'.padStart(3)} ${'units'.padStart(6)}  commands`);
    await measure('GET /api-keys, API key, first use (sets last_used_at)', { headers: keyHeaders }, '/api-keys');
    await measure('GET /api-keys, API key, steady state', { headers: keyHeaders }, '/api-keys');
    const login = await fetch(`${runtime.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: demo.adminEmail, password: demo.adminPassword }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    await measure(
      'GET /api-keys, access token',
      { headers: { 'X-Tenant-ID': demo.tenantId, Authorization: `Bearer ${login.access_token}` } },
      '/api-keys',
    );

    // A conversation with 30 messages, among 10 conversations.
    const json = { ...keyHeaders, 'Content-Type': 'application/json' };
    let conversationId = '';
    for (let c = 0; c < 10; c++) {
      for (let m = 0; m < (c === 0 ? 30 : 1); m++) {
        const res = await fetch(`${runtime.url}/api/v1/channels/sandbox/inbound`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ from: `+4915100000${String(c).padStart(3, '0')}`, text: `message ${m}` }),
        });
        conversationId ||= ((await res.json()) as { conversation: { id: string } }).conversation.id;
      }
    }
    await measure(
      'GET /conversations/:id (with newest 20 messages)',
      { headers: keyHeaders },
      `/conversations/${conversationId}`,
    );
    await measure('GET /conversations (page of 20)', { headers: keyHeaders }, '/conversations');
    await measure(
      'GET /conversations?status=open&tag=… (tag index)',
      { headers: keyHeaders },
      '/conversations?status=open&tag=vip',
    );
    await measure(
      'POST /conversations/:id/messages',
      { method: 'POST', headers: json, body: JSON.stringify({ text: 'On our way!' }) },
      `/conversations/${conversationId}/messages`,
    );

    // POST /bookings next to a booking of a resource that holds 1, then 500, future bookings: the same cost.
    const { createBooking } = await import('../functions/bookings/service');
    const slot = (resource: string, hour: number, minute = 0) => ({
      customer: { phone: '+4915100000500' },
      service: 'Bench',
      resource_id: resource,
      timezone: 'UTC',
      start_at: new Date(Date.UTC(2031, 0, 1, hour, minute)).toISOString(),
      end_at: new Date(Date.UTC(2031, 0, 1, hour, minute + 30)).toISOString(),
    });
    // Background workers (the outbox stream) also count: let them go quiet before each measure.
    const settle = async () => {
      for (let last = -1; last !== dbStats.calls;) {
        last = dbStats.calls;
        await new Promise((r) => setTimeout(r, 1500));
      }
    };
    for (const held of [1, 500])
      for (let h = 0; h < held; h++) await createBooking(demo.tenantId, slot(`bench-${held}`, h), new Date());
    for (const held of [1, 500]) {
      await settle();
      await measure(
        `POST /bookings (resource with ${held} future booking${held > 1 ? 's' : ''})`,
        { method: 'POST', headers: json, body: JSON.stringify(slot(`bench-${held}`, 0, 30)) },
        '/bookings',
      );
    }
  } finally {
    await runtime.stop();
  }
}

/** The AI quality and latency figures (the same as `npm run eval:ai`). */
function aiEvaluation() {
  console.log('');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'eval-ai.ts')], { stdio: 'inherit' });
}

/** The webhook figures run in a child process: it must trust a throwaway CA from its start. */
async function webhooks() {
  console.log('\nWebhook delivery\n');
  const { makeTestTls } = await import('../test/support/tls.mjs');
  const tls = makeTestTls();
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'webhooks.ts')], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: tls.ca, BENCH_TLS: JSON.stringify(tls) },
    stdio: 'inherit',
  });
}

await bundles();
await roundTrips();
await webhooks();
aiEvaluation();
