/**
 * Webhook figures (run by bench/bench.ts in a child process that trusts the test CA):
 *   - deliveries per second one worker process sustains to a local HTTPS receiver;
 *   - event-to-first-attempt latency through the local runtime (outbox → stream → fan-out → SQS → POST).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { SQSEvent } from 'aws-lambda';

process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
const tls = JSON.parse(process.env.BENCH_TLS ?? '{}') as { key: string; cert: string };

const arrivals: number[] = [];
const server = createServer(
  { key: readFileSync(tls.key), cert: readFileSync(tls.cert), keepAlive: true },
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
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
const { lambdaContext } = await import('../local/context');
const { createDelivery } = await import('../functions/webhooks/store');
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
const endpoint = await api<{ id: string }>('/webhooks', {
  ...tenant,
  method: 'POST',
  body: JSON.stringify({ url: receiverUrl, events: ['conversation.message.received'] }),
});

// 1. Throughput: the delivery worker's handler, called in this process with SQS batches of 10, 20 at a time (more only adds contention on 2 cores).
const TOTAL = 2000;
const messages = [];
for (let i = 0; i < TOTAL; i++) {
  const event = newEvent(tenant.tenant, 'webhook.test', { n: i }, new Date());
  const { id } = newDelivery(event, endpoint.id, new Date());
  await createDelivery(newDelivery(event, endpoint.id, new Date()), event);
  messages.push({
    tenant_id: tenant.tenant,
    delivery_id: id,
    webhook_id: endpoint.id,
    cycle: 1,
    failures: 0,
    payload: event,
  });
}
const batches: SQSEvent[] = [];
for (let i = 0; i < TOTAL; i += 10) {
  batches.push({
    Records: messages.slice(i, i + 10).map((m, j) => ({
      messageId: `${i + j}`,
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
}
const started = Date.now();
let next = 0;
let failures = 0;
await Promise.all(
  Array.from({ length: 20 }, async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const result = await worker.handler(batch as SQSEvent, lambdaContext('bench'));
      failures += result.batchItemFailures.length;
    }
  }),
);
const seconds = (Date.now() - started) / 1000;
console.log(
  `webhook deliveries per second, one worker process: ${Math.round(TOTAL / seconds)} (${TOTAL} signed HTTPS POSTs in ${seconds.toFixed(1)} s, ${failures} failed; target >= 500)`,
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
