/**
 * Webhook figures (run by bench/bench.ts in a child process that trusts the test CA):
 *   - deliveries per second one worker process sustains to a local HTTPS receiver;
 *   - event-to-first-attempt latency through the local runtime (outbox → stream → fan-out → SQS → POST).
 */
import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { Agent, createServer, request } from 'node:https';
import type { SQSEvent } from 'aws-lambda';
import { alternate, cell, median, ratioOf, showRatio, verdict } from './ratios';

process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
const tls = JSON.parse(process.env.BENCH_TLS ?? '{}') as { key: string; cert: string };

const arrivals: number[] = [];
let posts = 0;
const server = createServer(
  { key: readFileSync(tls.key), cert: readFileSync(tls.cert), keepAlive: true },
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string; type: string };
      if (body.type === 'conversation.message.received') arrivals.push(Date.now() - Date.parse(body.created_at));
      res.writeHead(204).end();
    });
  },
);
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
const receiverUrl = `https://localhost:${(server.address() as { port: number }).port}/hook`;

const { startLocalRuntime } = await import('../local/runtime');
const runtime = await startLocalRuntime({ port: 0, seedDemo: false, logLevel: 'error' });
const { invokeLocally } = await import('../local/invocations');
const { createDelivery, settleDelivery } = await import('../functions/webhooks/store');
const { newDelivery } = await import('../functions/webhooks/webhook');
const { newEvent } = await import('../functions/events/store');
const worker = await import('../functions/webhooks/delivery-worker');

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
const created = await api<{ tenant: { id: string }; api_key: { key: string } }>('/platform/tenants', {
  method: 'POST',
  body: JSON.stringify({
    name: 'Bench',
    plan: 'enterprise',
    rate_limit_per_hour: 1_000_000,
    admin: { email: 'bench@example.com', password: 'bench password 1' },
  }),
});
const tenant = { tenant: created.tenant.id, token: created.api_key.key };
const endpoint = await api<{ id: string; webhook_secret: string }>('/webhooks', {
  ...tenant,
  method: 'POST',
  body: JSON.stringify({ url: receiverUrl, events: ['conversation.message.received'] }),
});

// 1. Throughput: the delivery worker's handler, called in this process with SQS batches of 10, 20 batches
// at a time (more only adds contention on 2 cores), against the minimal loop doing the least a delivery
// must: sign, POST over a keep-alive connection, record the outcome with one UpdateItem; the same
// concurrency, receiver and DynamoDB Local. Each run takes fresh pending deliveries.
const PER_RUN = 600;
const PAIRS = 3;
const TARGET = Number(process.env.BENCH_WORKER_TARGET ?? 0.95);
const LANES = 20;
const BATCH = 10;
type Message = {
  tenant_id: string;
  delivery_id: string;
  webhook_id: string;
  cycle: number;
  failures: number;
  payload: ReturnType<typeof newEvent>;
};
async function pendingDeliveries(count: number): Promise<Message[]> {
  const out: Message[] = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < count) {
        made += 1;
        const event = newEvent(tenant.tenant, 'webhook.test', { n: made }, new Date());
        const delivery = newDelivery(event, endpoint.id, new Date());
        await createDelivery(delivery, event);
        out.push({
          tenant_id: tenant.tenant,
          delivery_id: delivery.id,
          webhook_id: endpoint.id,
          cycle: 1,
          failures: 0,
          payload: event,
        });
      }
    }),
  );
  return out;
}
const sqsEvent = (messages: Message[]): SQSEvent => ({
  Records: messages.map((m, j) => ({
    messageId: `${m.delivery_id}-${j}`,
    receiptHandle: '',
    body: JSON.stringify(m),
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn',
    awsRegion: 'us-east-1',
    messageAttributes: {},
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'bench',
      ApproximateFirstReceiveTimestamp: '0',
    },
  })),
});
/** Runs `batch` over `messages` in batches of BATCH, LANES at a time: deliveries per second. */
async function rate(messages: Message[], batch: (part: Message[]) => Promise<number>) {
  const before = posts;
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < messages.length) {
        const part = messages.slice(next, next + BATCH);
        next += BATCH;
        failed += await batch(part);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { rate: messages.length / seconds, failed, posted: posts - before };
}
// Each batch is an invocation of its own, as in Lambda: the batch processor keeps its state per invocation.
const workerBatch = async (part: Message[]) =>
  (await invokeLocally('webhook-delivery', worker.handler, sqsEvent(part))).batchItemFailures.length;
const secret = endpoint.webhook_secret;
const floorAgent = new Agent({ keepAlive: true, maxSockets: 64 });
const floorTarget = new URL(receiverUrl);
const floorPost = (body: string, headers: Record<string, string>) =>
  new Promise<number>((resolve) => {
    const req = request(
      floorTarget,
      {
        method: 'POST',
        agent: floorAgent,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
const floorBatch = async (part: Message[]) => {
  const outcomes = await Promise.all(
    part.map(async (m) => {
      const body = JSON.stringify(m.payload);
      const timestamp = Math.floor(Date.now() / 1000);
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const signature = `v1,${createHmac('sha256', key).update(`${m.payload.id}.${timestamp}.${body}`).digest('base64')}`;
      const status = await floorPost(body, {
        'webhook-id': m.payload.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      });
      const at = new Date();
      const d = { tenant_id: m.tenant_id, webhook_id: m.webhook_id, id: m.delivery_id };
      const settled = await settleDelivery(
        d,
        { status: 'succeeded', fields: { succeeded_at: at.toISOString() }, expect: ['pending'] },
        at,
      );
      return settled && status >= 200 && status < 300;
    }),
  );
  return outcomes.filter((ok) => !ok).length;
};
// Warm both (connections, code), then the pairs.
await rate(await pendingDeliveries(200), workerBatch);
await rate(await pendingDeliveries(200), floorBatch);
const runs = await alternate(
  PAIRS,
  async () => rate(await pendingDeliveries(PER_RUN), workerBatch),
  async () => rate(await pendingDeliveries(PER_RUN), floorBatch),
);
const ratio = ratioOf(
  runs.project.map((r) => r.rate),
  runs.floor.map((r) => r.rate),
);
// A run whose POSTs were not exactly its deliveries, each once, measured something else: said, per side.
const offRuns = (side: string, rs: { failed: number; posted: number }[]) =>
  rs
    .filter((r) => r.failed > 0 || r.posted !== PER_RUN)
    .map((r) => `${side}: ${r.failed} failed, ${r.posted} POSTs for ${PER_RUN}`);
const off = [...offRuns('worker', runs.project), ...offRuns('minimal loop', runs.floor)];
console.log(
  `webhook deliveries per second, one process, ${LANES}×${BATCH} in flight, ${PAIRS} pairs of ${PER_RUN} in alternating order:\n` +
    `  worker ${cell(median(runs.project.map((r) => r.rate)), 0)}/s, minimal loop (sign, POST, one UpdateItem) ${cell(median(runs.floor.map((r) => r.rate)), 0)}/s: ` +
    `${showRatio(ratio)} ${verdict(ratio, { min: TARGET })}${off.length ? ` (runs off: ${off.join('; ')})` : ''}`,
);

// 2. Latency: inbound messages through the API; each fans out to the endpoint via the stream and SQS.
const SAMPLES = 60;
for (let i = 0; i < SAMPLES; i++) {
  await api('/channels/sandbox/inbound', {
    ...tenant,
    method: 'POST',
    body: JSON.stringify({ from: `+49151${String(1000000 + i)}`, text: `latency ${i}` }),
  });
  await new Promise((r) => setTimeout(r, 100));
}
const deadline = Date.now() + 20_000;
while (arrivals.length < SAMPLES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
const sorted = [...arrivals].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
console.log(
  `event to first delivery attempt, local runtime: p50 ${pct(50)} ms, p99 ${pct(99)} ms over ${sorted.length} events (target p50 <= 250 ms)`,
);

await runtime.stop();
server.close();
server.closeAllConnections();
