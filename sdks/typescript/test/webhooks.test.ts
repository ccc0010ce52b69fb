// Webhook endpoints and deliveries, and verifyWebhook on real deliveries from the running system to a
// local HTTPS receiver (the main suite's, trusted by the runtime through the test CA).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NotFoundError, PreconditionFailedError, verifyWebhook, WebhookVerificationError, type EventOf, type WebhookEvent } from '../src/index.js';
import { eventually, newTenant, phone, startReceiver, type TestTenant } from './helpers.js';

let t: TestTenant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  t = await newTenant();
  receiver = await startReceiver();
});
after(() => receiver.close());

/** Deliveries the receiver got whose body is the event `eventId`. */
const deliveriesOf = async (eventId: string) => (await receiver.received()).filter((r) => r.body.includes(`"id":"${eventId}"`));

describe('webhooks', () => {
  let webhookId: string;
  let secret: string;

  it('create returns the secret once; get, list and update (If-Match) work', async () => {
    const created = await t.client.webhooks.create({ url: receiver.url('/hook'), events: ['conversation.*'], description: 'SDK test' });
    assert.match(created.webhook_secret, /^whsec_/);
    assert.equal(created.is_active, true);
    webhookId = created.id;
    secret = created.webhook_secret;

    const got = await t.client.webhooks.get(webhookId);
    assert.equal(got.url, receiver.url('/hook'));
    assert.ok(!('webhook_secret' in got));
    const listed = await t.client.webhooks.list().toArray();
    assert.deepEqual(listed.map((w) => w.id), [webhookId]);
    const updated = await t.client.webhooks.update(webhookId, { events: ['conversation.*', 'webhook.test'], description: null }, { ifMatch: got.version });
    assert.deepEqual(updated.events, ['conversation.*', 'webhook.test']);
    assert.equal(updated.description, null);
  });

  it('verifyWebhook accepts a real delivery and returns the typed event; a tampered one is refused', async () => {
    const inbound = await t.client.channels.sandboxInbound({ from: phone(), name: 'Hook', text: 'Hello webhooks' });
    assert.ok('conversation' in inbound);
    const delivery = await eventually(
      async () => (await receiver.received()).find((r) => r.body.includes('"type":"conversation.created"') && r.body.includes(inbound.conversation.id)),
      (r) => r !== undefined,
    );
    assert.ok(delivery);
    const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.headers, secret);
    assert.equal(event.type, 'conversation.created');
    if (event.type === 'conversation.created') assert.equal(event.data.conversation.id, inbound.conversation.id);
    assert.equal(event.id, delivery.headers['webhook-id']);
    assert.equal(event.tenant_id, t.tenantId);

    await assert.rejects(verifyWebhook(delivery.body.replace('conversation.created', 'conversation.updated'), delivery.headers, secret), WebhookVerificationError);
    await assert.rejects(verifyWebhook(delivery.body, delivery.headers, secret, { toleranceSeconds: 0, now: Date.now() + 5000 }), (e: unknown) => e instanceof WebhookVerificationError && e.reason === 'timestamp_too_old');
  });

  it('after rotateSecret a delivery carries two signatures, and either secret verifies it', async () => {
    const before = await t.client.webhooks.get(webhookId);
    await assert.rejects(t.client.webhooks.rotateSecret(webhookId, { ifMatch: before.version + 1 }), PreconditionFailedError);
    const rotated = await t.client.webhooks.rotateSecret(webhookId, { ifMatch: before.version });
    assert.equal(rotated.version, before.version + 1);
    assert.notEqual(rotated.webhook_secret, secret);
    assert.ok(rotated.previous_secret_expires_at);
    // Rotation takes effect within a second.
    await new Promise((r) => setTimeout(r, 1200));
    const test = await t.client.webhooks.test(webhookId);
    assert.match(test.delivery_id, /^dlv_/);
    assert.equal(test.event.type, 'webhook.test');
    const [delivery] = await eventually(async () => deliveriesOf(test.event.id), (list) => list.length > 0);
    assert.ok(delivery);
    assert.equal(String(delivery.headers['webhook-signature']).split(' ').length, 2);
    const withNew = await verifyWebhook<EventOf<'webhook.test'>>(delivery.body, delivery.headers, rotated.webhook_secret);
    const withOld = await verifyWebhook<EventOf<'webhook.test'>>(delivery.body, delivery.headers, secret);
    assert.equal(withNew.type, 'webhook.test');
    assert.equal(withNew.data.webhook_id, webhookId);
    assert.deepEqual(withOld, withNew);
    secret = rotated.webhook_secret;
  });

  it('failed deliveries: the failed view, a delivery with its attempts, retry, recover, per-endpoint list', async () => {
    // A Date, as the list's query and recover's body both take one.
    const since = new Date(Date.now() - 1000);
    await receiver.setBehaviour({ status: 500, body: 'down' });
    const first = await t.client.webhooks.test(webhookId);
    const second = await t.client.webhooks.test(webhookId);
    // 6 attempts, 1 s apart in the test runtime, then the dead-letter consumer marks them failed.
    const failed = await eventually(
      async () => t.client.webhookDeliveries.list().toArray(),
      (list) => [first.delivery_id, second.delivery_id].every((id) => list.some((d) => d.id === id && d.status === 'failed')),
      60_000,
    );
    assert.ok(failed.every((d) => d.status === 'failed'));
    const narrowed = await t.client.webhookDeliveries
      .list({ webhook_id: webhookId, event_type: 'webhook.test', since, limit: 1 })
      .toArray();
    assert.deepEqual(narrowed.map((d) => d.id).sort(), [first.delivery_id, second.delivery_id].sort());
    // Each filter can exclude them: another endpoint, another type, events before `since`.
    const none = [{ webhook_id: 'whk_01JDQ8ZK3M4N5P6Q7R8S9T0V1W' }, { event_type: 'booking.created' as const }, { until: since }];
    for (const filter of none) assert.deepEqual(await t.client.webhookDeliveries.list(filter).toArray(), []);

    const detail = await t.client.webhookDeliveries.get(first.delivery_id);
    assert.equal(detail.status, 'failed');
    assert.equal(detail.attempts.length, 6);
    assert.equal(detail.attempts[0]?.status_code, 500);
    assert.equal(detail.payload.id, first.event.id);

    await receiver.setBehaviour({ status: 204 });
    const replay = await t.client.webhookDeliveries.retry(first.delivery_id);
    assert.deepEqual(replay, { delivery_id: first.delivery_id, status: 'pending', cycle: 2 });
    await eventually(() => t.client.webhookDeliveries.get(first.delivery_id), (d) => d.status === 'succeeded', 30_000);

    const recovered = await t.client.webhooks.recover(webhookId, { since });
    assert.equal(recovered.replayed, 1);
    assert.equal(recovered.has_more, false);
    await eventually(() => t.client.webhookDeliveries.get(second.delivery_id), (d) => d.status === 'succeeded', 30_000);

    const succeeded = await t.client.webhooks.deliveries(webhookId, { status: 'succeeded' }).toArray();
    for (const id of [first.delivery_id, second.delivery_id]) assert.ok(succeeded.some((d) => d.id === id));
    const stillFailed = await t.client.webhookDeliveries.list({ status: 'failed' }).toArray();
    assert.equal(stillFailed.length, 0);
  });

  it('delete removes the endpoint, on condition of ifMatch when given', async () => {
    const current = await t.client.webhooks.get(webhookId);
    await assert.rejects(t.client.webhooks.delete(webhookId, { ifMatch: current.version - 1 }), PreconditionFailedError);
    await t.client.webhooks.delete(webhookId, { ifMatch: current.version });
    await assert.rejects(t.client.webhooks.get(webhookId), NotFoundError);
    await assert.rejects(t.client.webhooks.delete(webhookId), NotFoundError);
  });
});
