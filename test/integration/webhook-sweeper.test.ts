import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Server, type Socket } from 'node:net';
import type { Context, SQSEvent } from 'aws-lambda';
import { QUEUES, TABLES } from '../../catalog/resources';
import { db } from '../../functions/platform/db';
import { logger } from '../../functions/platform/observability';
import { newEvent } from '../../functions/events/store';
import { handler as deliver } from '../../functions/webhooks/delivery-worker';
import { sweepOverdueDeliveries as sweep } from '../../functions/webhooks/sweep';
import { createDelivery, getDelivery, takeAttempt } from '../../functions/webhooks/store';
import { DEFAULT_SWEEP_GRACE_SECONDS, newDelivery } from '../../functions/webhooks/webhook';
import { authOf, call, createTenant, eventually, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';

/**
 * A delivery is never stranded and never POSTed twice at the same time. In AWS, SendMessage to the retry
 * queue can fail after the attempt was recorded, a queue message can be lost with the process that held
 * it, and a worker can die mid-attempt: the sweeper takes each over soon (its default grace, or the end
 * of the attempt's lease), while two copies of one attempt let only one POST. Workers and sweeps run in
 * this process (so the queue can be broken); the runtime's own workers make the attempts they queue.
 */
useRuntimeAws();
const queues = JSON.parse(readFileSync(testRuntime().opsFile, 'utf8')).queues;
const context = { awsRequestId: 'test', functionName: 'webhook-delivery' } as Context;
Object.assign(process.env, {
  WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
});
process.env[QUEUES.webhookDelivery.envVar] = queues.webhookDelivery.url;
process.env[QUEUES.webhookDeliveryDlq.envVar] = queues.webhookDeliveryDlq.url;
// The defaults, as in AWS.
delete process.env.WEBHOOK_SWEEP_GRACE_SECONDS;

const recordOf = (message: unknown, id = 'm1') => ({
  messageId: id,
  body: JSON.stringify(message),
  attributes: { ApproximateReceiveCount: '1' },
});

/** An endpoint of `t` at `url`, and a delivery of a hand-made event to it, created `ageMs` ago. */
async function deliveryTo(t: TestTenant, url: string, ageMs = 0) {
  const endpoint = (await call('POST', '/webhooks', { ...authOf(t), body: { url, events: ['booking.*'] } })).body;
  const at = new Date(Date.now() - ageMs);
  const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_sweep' } }, at);
  const delivery = newDelivery(event, endpoint.id, at);
  expect(await createDelivery(delivery, event)).toBe(true);
  const message = {
    tenant_id: t.tenantId,
    delivery_id: delivery.id,
    webhook_id: endpoint.id,
    cycle: 1,
    failures: 0,
    payload: event,
  };
  return { endpoint, event, delivery, message };
}

/**
 * An HTTPS address that holds each connection a second without an answer (an attempt under way), counting
 * them; `connected` resolves at the first.
 */
async function silentReceiver() {
  const sockets: Socket[] = [];
  let firstConnection = () => {};
  const connected = new Promise<void>((resolve) => (firstConnection = resolve));
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    firstConnection();
    setTimeout(() => socket.destroy(), 1000);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  return { url, sockets, connected, close: () => server.close() };
}

/** Sweeps (as the schedule would) until the delivery is final; the runtime's own sweeper may do it first. */
const sweptUntilFinal = (t: TestTenant, id: string, ms: number) =>
  eventually(
    async () => {
      await sweep();
      return getDelivery(t.tenantId, id);
    },
    (d) => d?.status === 'succeeded',
    ms,
  );

it('a retry whose SendMessage failed is re-queued by the sweeper and then succeeds', async () => {
  const t = await createTenant();
  // The event is hand-made, so not one the contract describes.
  const r = await startReceiver(() => ({ status: 500 }), { contract: false });
  try {
    const { delivery, message } = await deliveryTo(t, r.url());
    process.env[QUEUES.webhookDelivery.envVar] = `${queues.webhookDelivery.url}-missing`;
    // The attempt is made and recorded, but its retry cannot be queued: the record (here, the whole batch) fails.
    await expect(deliver({ Records: [recordOf(message)] } as unknown as SQSEvent, context)).rejects.toThrow(
      /All records failed/,
    );
    const stranded = await getDelivery(t.tenantId, delivery.id);
    expect(stranded).toMatchObject({ status: 'pending', cycle_attempts: 1 });
    expect(Date.parse(stranded?.next_attempt_at ?? '')).toBeGreaterThan(Date.parse(stranded?.attempts[0]?.at ?? ''));

    r.setBehaviour(() => ({ status: 200 }));
    process.env[QUEUES.webhookDelivery.envVar] = queues.webhookDelivery.url;
    const done = await sweptUntilFinal(t, delivery.id, (DEFAULT_SWEEP_GRACE_SECONDS + 30) * 1000);
    // (This process does not trust the receiver's test CA, so its own attempt failed either way.)
    expect(done?.attempts).toHaveLength(2);
    expect(done?.attempts[0]?.error).not.toBeNull();
    expect(done?.attempts[1]).toMatchObject({ status_code: 200, error: null });
    // Finished deliveries leave the sweeper's index: another sweep finds nothing of it to do.
    expect((await getDelivery(t.tenantId, delivery.id))?.next_attempt_at).toBeNull();
  } finally {
    await r.close();
  }
}, 90_000);

it('a delivery whose queue message was lost is taken over within a minute, not after minutes', async () => {
  const t = await createTenant();
  const r = await startReceiver(() => ({ status: 200 }), { contract: false });
  try {
    // Due 40 s ago and never attempted: its message died with the process that held it.
    const { delivery } = await deliveryTo(t, r.url(), 40_000);
    const swept = await sweep();
    expect(swept.oldest_overdue_seconds).toBeGreaterThanOrEqual(40);
    const done = await sweptUntilFinal(t, delivery.id, 30_000);
    expect(done?.attempts.at(-1)).toMatchObject({ status_code: 200, error: null });
  } finally {
    await r.close();
  }
}, 60_000);

it('an attempt whose worker died is taken over when its lease ends', async () => {
  const t = await createTenant();
  const r = await startReceiver(() => ({ status: 200 }), { contract: false });
  try {
    const { delivery } = await deliveryTo(t, r.url());
    // A worker took the attempt (a 2 s lease) and died before any outcome.
    expect(await takeAttempt(delivery, { cycle: 1, attemptsSoFar: 0 }, new Date(Date.now() + 2000), new Date())).toBe(
      true,
    );
    // While the lease lasts, nobody else may make that attempt.
    expect(await takeAttempt(delivery, { cycle: 1, attemptsSoFar: 0 }, new Date(Date.now() + 2000), new Date())).toBe(
      false,
    );
    const done = await sweptUntilFinal(t, delivery.id, 20_000);
    expect(done?.attempts).toHaveLength(1);
    expect(done?.attempts[0]).toMatchObject({ status_code: 200, error: null });
    // Taken over at the lease's end, long before a sweep grace of minutes.
    expect(Date.parse(done?.succeeded_at ?? '') - Date.parse(delivery.created_at)).toBeLessThan(15_000);
  } finally {
    await r.close();
  }
}, 40_000);

it('two copies of one attempt (a duplicate, or a sweep of a slow message) never POST at the same time', async () => {
  const t = await createTenant();
  const receiver = await silentReceiver();
  try {
    const { delivery, message } = await deliveryTo(t, receiver.url);
    await Promise.all(
      ['m1', 'm2'].map((id) => deliver({ Records: [recordOf(message, id)] } as unknown as SQSEvent, context)),
    );
    expect(receiver.sockets.length).toBe(1);
    // The attempt was recorded once, by the copy that made it.
    expect((await getDelivery(t.tenantId, delivery.id))?.attempts).toHaveLength(1);
  } finally {
    receiver.close();
  }
}, 30_000);

it('a worker whose lease ended mid-attempt leaves the lease of the copy that took it over', async () => {
  const t = await createTenant();
  const receiver = await silentReceiver();
  try {
    const { delivery, message } = await deliveryTo(t, receiver.url);
    // What the worker warns of, still written to the log.
    const warn = jest.spyOn(logger, 'warn');
    const late = deliver({ Records: [recordOf(message)] } as unknown as SQSEvent, context);
    await receiver.connected;
    // While it POSTs, another worker takes the attempt over: by its clock, 10 s ahead (or after this one
    // stalled that long), the lease has ended.
    const takenOver = new Date(Date.now() + 60_000);
    const aheadNow = new Date(Date.now() + 10_000);
    expect(await takeAttempt(delivery, { cycle: 1, attemptsSoFar: 0 }, takenOver, aheadNow)).toBe(true);
    await late;
    // The late worker's outcome is not recorded, and the copy POSTing now keeps its lease.
    const stored = await db().send(
      new GetCommand({
        TableName: `local-${TABLES.main.id}`,
        Key: { pk: `TENANT#${t.tenantId}`, sk: `DLV#${delivery.id}` },
        ConsistentRead: true,
      }),
    );
    expect(stored.Item).toMatchObject({ status: 'pending', lease_until: takenOver.toISOString() });
    expect(stored.Item?.attempts ?? []).toHaveLength(0);
    // Its POST happened: the outcome it could not record is logged, for the operator.
    expect(warn.mock.calls).toContainEqual([
      expect.stringContaining('not recorded'),
      expect.objectContaining({ delivery_id: delivery.id, cycle: 1, attempt: 1, status_code: null }),
    ]);
  } finally {
    jest.restoreAllMocks();
    receiver.close();
  }
}, 30_000);
