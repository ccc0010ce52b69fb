/**
 * The API path's figures (run by bench/bench.ts in a child process with a local runtime of its own):
 *
 * 1. Requests per second, p50 and p99 of `GET /conversations` through the local gateway, against a floor: a
 *    minimal HTTP server in the same process making the same DynamoDB calls (the API key read, then the
 *    rate-limit update beside the query, exactly as the handler sent them) and answering the page as JSON.
 *    On an enterprise tenant whose limit cannot interfere, after a warm-up, at 10 and 50 connections, in
 *    alternating pairs; the load comes from a process of its own (bench/load.ts).
 * 2. Growth, as ratios: `GET /conversations` and `GET /events` in a tenant with 5,000 items against one
 *    with 200; `POST /bookings` next to a resource with 500 future bookings against one with 1.
 * 3. Memory: the resident set of this process (the runtime's Node side) and of DynamoDB Local, idle and
 *    after the load.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as dynamodb from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { LoadResult, LoadSpec } from './load';
import { benchSlot, cancelBenchBooking, holdFutureBookings } from './booking-growth';
import {
  alternate,
  cell,
  median,
  meets,
  percentile,
  ratioOf,
  showRatio,
  showTarget,
  verdict,
  type RatioTarget,
} from './ratios';

process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET: RatioTarget = { min: Number(process.env.BENCH_API_TARGET ?? 0.9) };
const PAIRS = 3;
const RUN_MS = 3000;
/**
 * Each side's warm-up, in rounds taking turns: DynamoDB Local's JVM goes on compiling for about 15 s of
 * load, so a shorter one gave the first pair's side slower answers than the rest (up to a third fewer).
 */
const WARMUP_ROUNDS = 3;
const WARMUP_MS = 4000;

const run = promisify(execFile);
async function load(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', 'load.ts'), JSON.stringify(spec)],
    {
      env: { PATH: process.env.PATH },
    },
  );
  return JSON.parse(stdout) as LoadResult;
}

const rssMb = (pid: number | undefined): number => {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
};

const { startLocalRuntime } = await import('../local/runtime');
const runtime = await startLocalRuntime({ port: 0, seedDemo: false, logLevel: 'error' });
const memory = () => ({ node: process.memoryUsage().rss / 1024 ** 2, dynamo: rssMb(runtime.dynamoPid) });
const idle = memory();

// Every DynamoDB call the functions make, as sent (marshalled), while `capturing` is on.
const { onClientMade } = await import('../functions/platform/client-hooks');
const { withNewWriteId } = await import('../functions/platform/db');
let capturing: { command: string; input: unknown; started: number; ended: number }[] | undefined;
let captured: { middlewareStack: { remove(name: string): boolean } } | undefined;
onClientMade((made) => {
  if (made.service !== 'dynamodb') return;
  captured = made.client;
  made.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!capturing) return next(args);
      const call = { command: String(context.commandName), input: structuredClone(args.input), started: 0, ended: 0 };
      call.started = performance.now();
      capturing.push(call);
      try {
        return await next(args);
      } finally {
        call.ended = performance.now();
      }
    },
    { step: 'build', name: 'benchCapture' },
  );
});

try {
  const api = async <T>(path: string, init: RequestInit & { token?: string; tenant?: string } = {}): Promise<T> => {
    const res = await fetch(`${runtime.url}/api/v1${path}`, {
      ...init,
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${init.token ?? runtime.platformToken}`,
        ...(init.tenant ? { 'X-Tenant-ID': init.tenant } : {}),
      },
    });
    return (await res.json()) as T;
  };
  const newTenant = async (name: string) => {
    const created = await api<{ tenant: { id: string }; api_key: { key: string } }>('/platform/tenants', {
      method: 'POST',
      body: JSON.stringify({
        name,
        plan: 'enterprise',
        rate_limit_per_hour: 10_000_000,
        admin: { email: `${name.toLowerCase()}@example.com`, password: 'bench password 1' },
      }),
    });
    return {
      id: created.tenant.id,
      headers: { 'X-Tenant-ID': created.tenant.id, Authorization: `Bearer ${created.api_key.key}` },
    };
  };

  // Tenants with 200 and 5,000 conversations (and as many events: each conversation's creation is one).
  const { openConversation } = await import('../functions/conversations/service');
  const seed = async (tenantId: string, count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          const n = next++;
          await openConversation(
            tenantId,
            { channel: 'sandbox', customer: { phone: `+49151${String(2000000 + n)}` } },
            { type: 'api_key', id: 'bench' } as never,
            new Date(),
          );
        }
      }),
    );
  };
  const small = await newTenant('Bench200');
  const large = await newTenant('Bench5000');
  await seed(small.id, 200);

  // 1. GET /conversations against the minimal server. First, the calls the handler makes in steady state.
  const listUrl = `${runtime.url}/api/v1/conversations`;
  for (let i = 0; i < 3; i++) await fetch(listUrl, { headers: small.headers }).then((r) => r.text());
  capturing = [];
  await fetch(listUrl, { headers: small.headers }).then((r) => r.text());
  const calls = capturing;
  capturing = undefined;
  // Out of the way of the figures: the minimal server's client has no middleware of the bench's either.
  captured?.middlewareStack.remove('benchCapture');
  // Calls started while another was in flight went beside it: the floor sends them together too.
  const waves: (typeof calls)[] = [];
  for (const call of calls) {
    const last = waves.at(-1);
    if (last && last.some((c) => c.started <= call.started && call.started < c.ended)) last.push(call);
    else waves.push([call]);
  }
  console.log(
    `GET /conversations makes ${calls.length} DynamoDB calls: ${waves.map((w) => w.map((c) => c.command.replace('Command', '')).join(' + ')).join(', then ')}`,
  );
  const client = new dynamodb.DynamoDBClient({ maxAttempts: 3 });
  const commands = dynamodb as unknown as Record<string, new (input: unknown) => dynamodb.GetItemCommand>;
  // The first error the minimal server answered 500 for, to say why in a miss.
  let floorError: string | undefined;
  const floor = createServer((req, res) => {
    void (async () => {
      let items: unknown[] = [];
      for (const wave of waves) {
        const outputs = await Promise.all(
          // Each update under a write id of its own, as the handler sends it: the recorded one would be refused.
          wave.map((c) =>
            client.send(new (commands[c.command] as typeof dynamodb.GetItemCommand)(withNewWriteId(c.input as never))),
          ),
        );
        for (const out of outputs) {
          const page = (out as { Items?: Record<string, dynamodb.AttributeValue>[] }).Items;
          if (page) items = page.map((item) => unmarshall(item));
        }
      }
      const body = JSON.stringify({ data: items, pagination: { limit: 20, has_more: false, next_cursor: null } });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    })().catch((error: unknown) => {
      floorError ??= String(error);
      res.writeHead(500).end();
    });
  });
  floor.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => floor.listen(0, '127.0.0.1', () => ok()));
  const floorUrl = `http://127.0.0.1:${(floor.address() as { port: number }).port}/conversations`;

  const project = (connections: number, durationMs = RUN_MS) =>
    load({ url: listUrl, headers: small.headers, connections, durationMs });
  const minimal = (connections: number, durationMs = RUN_MS) =>
    load({ url: floorUrl, headers: small.headers, connections, durationMs });
  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    await project(10, WARMUP_MS);
    await minimal(10, WARMUP_MS);
  }

  console.log(
    `\nrequests per second and latency (ms), ${PAIRS} pairs of ${RUN_MS / 1000} s runs in alternating order after a warm-up of ${WARMUP_ROUNDS} × ${WARMUP_MS / 1000} s each;` +
      `\nratio = median of the pairs' API/minimal requests per second (lowest–highest), target ${showTarget(TARGET)}\n`,
  );
  console.log(
    `${'connections'.padEnd(12)} ${'API rps'.padStart(8)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}  ${'minimal rps'.padStart(11)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}  ${'ratio (spread)'.padStart(22)} target`,
  );
  const misses: string[] = [];
  for (const connections of [10, 50]) {
    const runs = await alternate(
      PAIRS,
      () => project(connections),
      () => minimal(connections),
    );
    const ratio = ratioOf(
      runs.project.map((r) => r.rps),
      runs.floor.map((r) => r.rps),
    );
    // An answer that is not 2xx did less work than the page: a run with any is no measure of either side.
    const errorsOf = (rs: LoadResult[]) => rs.reduce((n, r) => n + r.errors, 0);
    const errors = { api: errorsOf(runs.project), minimal: errorsOf(runs.floor) };
    const failed = errors.api + errors.minimal > 0;
    if (failed)
      misses.push(
        `GET /conversations at ${connections} connections: answers not 2xx, ${errors.api} from the API, ${errors.minimal} from the minimal server${floorError ? ` (its first: ${floorError})` : ''}`,
      );
    const m = (rs: LoadResult[], k: keyof LoadResult) => cell(median(rs.map((r) => r[k])), k === 'rps' ? 0 : 1);
    if (!meets(ratio, TARGET)) misses.push(`GET /conversations at ${connections} connections ${showRatio(ratio)}`);
    console.log(
      `${String(connections).padEnd(12)} ${m(runs.project, 'rps').padStart(8)} ${m(runs.project, 'p50').padStart(6)} ${m(runs.project, 'p99').padStart(6)}  ${m(runs.floor, 'rps').padStart(11)} ${m(runs.floor, 'p50').padStart(6)} ${m(runs.floor, 'p99').padStart(6)}  ${showRatio(ratio).padStart(22)} ${verdict(ratio, TARGET)}${failed ? ` (not 2xx: ${errors.api} API, ${errors.minimal} minimal)` : ''}`,
    );
  }

  // 2. Growth: the same request in a tenant holding 5,000 items against one holding 200. Seeded only now:
  // the workers that the seeding sets off run in this process, and would weigh on the figures above.
  const seedStarted = Date.now();
  await seed(large.id, 5000);
  console.log(`\n(seeded 5,000 conversations in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s)`);
  console.log(
    `\nGrowth: the same request with more items in the tenant (ratio = median of ${PAIRS} pairs, 10 connections, larger/smaller; 1.00× is flat)\n`,
  );
  console.log(
    `${'request'.padEnd(48)} ${'rps small'.padStart(9)} ${'rps large'.padStart(9)}  ${'p50 ms ratio'.padStart(22)}`,
  );
  for (const path of ['/conversations', '/events']) {
    const at = (t: typeof small) => () =>
      load({ url: `${runtime.url}/api/v1${path}`, headers: t.headers, connections: 10, durationMs: 2000 });
    await at(small)();
    await at(large)();
    const runs = await alternate(PAIRS, at(large), at(small));
    const p50 = ratioOf(
      runs.project.map((r) => r.p50),
      runs.floor.map((r) => r.p50),
    );
    console.log(
      `${`GET ${path}, 5,000 items against 200`.padEnd(48)} ${cell(median(runs.floor.map((r) => r.rps)), 0).padStart(9)} ${cell(median(runs.project.map((r) => r.rps)), 0).padStart(9)}  ${showRatio(p50).padStart(22)}`,
    );
  }
  // POST /bookings beside a resource holding 1, then 500, future bookings; each booking is cancelled after.
  await holdFutureBookings(small.id, 'growth');
  const book = (held: number) => async () => {
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const res = await fetch(`${runtime.url}/api/v1/bookings`, {
        method: 'POST',
        headers: { ...small.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(benchSlot(`growth-${held}`, 0, 30)),
      });
      const booking = (await res.json()) as { id: string };
      latencies.push(performance.now() - started);
      await cancelBenchBooking(small.id, booking.id);
    }
    return percentile(latencies, 50);
  };
  await book(1)();
  await book(500)();
  const bookings = await alternate(PAIRS, book(500), book(1));
  console.log(
    `${'POST /bookings, 500 future bookings against 1'.padEnd(48)} ${`${cell(median(bookings.floor))} ms`.padStart(9)} ${`${cell(median(bookings.project))} ms`.padStart(9)}  ${showRatio(ratioOf(bookings.project, bookings.floor)).padStart(22)}`,
  );

  // 3. Memory.
  const loaded = memory();
  console.log(
    `\nMemory, resident: runtime's Node process ${cell(idle.node, 0)} MB idle, ${cell(loaded.node, 0)} MB after the load; ` +
      `DynamoDB Local ${cell(idle.dynamo, 0)} MB idle, ${cell(loaded.dynamo, 0)} MB after the load (heap bounded: local/dynamodb-local.ts)`,
  );
  console.log(misses.length ? `\nOVER: ${misses.join('; ')}` : '\nEvery API path target met.');
  floor.close();
  floor.closeAllConnections();
} finally {
  await runtime.stop();
}
