import { readFileSync } from 'node:fs';
import { QUEUES } from '../../catalog/resources';
import { newEvent } from '../../functions/events/store';
import { enqueueDeliveries } from '../../functions/webhooks/delivery-queue';
import { currentSubscriptions, fanOut } from '../../functions/webhooks/fanout';
import { deliveryId } from '../../functions/webhooks/webhook';
import { authOf, call, createTenant, eventually } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';

/**
 * At least once, but never forked: a dispatcher stream retry or a duplicate SQS message must not start a
 * second retry chain or resend a delivery that is already under way. Uses the runtime's own queues and
 * workers; only the duplicates are injected from here.
 */
useRuntimeAws();
const queues = JSON.parse(readFileSync(testRuntime().opsFile, 'utf8')).queues;
process.env[QUEUES.webhookDelivery.envVar] = queues.webhookDelivery.url;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a repeated fan-out of the same event sends nothing more', async () => {
  const t = await createTenant();
  // The events here are hand-made, so not ones the contract describes.
  const r = await startReceiver(undefined, { contract: false });
  const endpoint = (await call('POST', '/webhooks', { ...authOf(t), body: { url: r.url(), events: ['booking.*'] } }))
    .body;
  const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_x' } }, new Date());
  const endpoints = (await currentSubscriptions([t.tenantId])).get(t.tenantId) ?? [];
  expect(await fanOut(event, endpoints, new Date())).toBe(1);
  // Received, and its attempt recorded (the worker writes it once the POST has answered): the delivery is
  // under way, so a repeated fan-out leaves it alone.
  const path = `/webhook-deliveries/${deliveryId(event.id, endpoint.id)}`;
  await eventually(
    () => call('GET', path, { ...authOf(t), contract: false }),
    (res) => res.body.status === 'succeeded',
  );
  expect(r.received).toHaveLength(1);
  expect(await fanOut(event, endpoints, new Date())).toBe(0);
  await sleep(1500);
  expect(r.received).toHaveLength(1);
  const delivery = await call('GET', path, { ...authOf(t), contract: false });
  expect(delivery.body).toMatchObject({
    status: 'succeeded',
    attempts: [expect.objectContaining({ status_code: 200 })],
  });
  await r.close();
});

it('a duplicate queue message during retries is sent at most once more and never forks the chain', async () => {
  const t = await createTenant();
  const r = await startReceiver(() => ({ status: 500 }), { contract: false });
  const endpoint = (await call('POST', '/webhooks', { ...authOf(t), body: { url: r.url(), events: ['booking.*'] } }))
    .body;
  const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_y' } }, new Date());
  await fanOut(event, (await currentSubscriptions([t.tenantId])).get(t.tenantId) ?? [], new Date());
  await eventually(
    async () => r.received.length,
    (n) => n >= 1,
  );
  const id = deliveryId(event.id, endpoint.id);
  await enqueueDeliveries([
    { tenant_id: t.tenantId, delivery_id: id, webhook_id: endpoint.id, cycle: 1, failures: 0, payload: event },
  ]);
  const failed = await eventually(
    () => call('GET', `/webhook-deliveries/${id}`, { ...authOf(t), contract: false }),
    (res) => res.body.status === 'failed',
    30_000,
  );
  expect(failed.body.attempts).toHaveLength(6);
  expect(failed.body.failure_reason).toMatch(/after 6 attempts/);
  await sleep(3000);
  expect(r.received.length).toBeGreaterThanOrEqual(6);
  expect(r.received.length).toBeLessThanOrEqual(7);
  await r.close();
}, 60_000);
