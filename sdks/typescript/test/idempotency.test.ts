// Idempotency keys: every POST gets one, the same across its retries; the caller may choose it; and a
// POST whose response is lost (the proxy cuts the connection after the runtime answered) is retried and
// replayed, so it acts once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MessagingClient } from '../src/index.js';
import { newTenant, phone, startProxy, type TestTenant } from './helpers.js';

let t: TestTenant;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let client: MessagingClient;
let customerId: string;
let conversationId: string;
before(async () => {
  t = await newTenant();
  proxy = await startProxy();
  client = t.clientWith({ baseUrl: proxy.url });
  const inbound = await t.client.channels.sandboxInbound({ from: phone(), name: 'Ida', text: 'Hello' });
  assert.ok('conversation' in inbound);
  customerId = inbound.conversation.customer.id;
  conversationId = inbound.conversation.id;
});
after(() => proxy.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const slot = (hour: number) => {
  const day = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);
  return { start_at: `${day}T${String(hour).padStart(2, '0')}:00:00Z`, end_at: `${day}T${String(hour).padStart(2, '0')}:30:00Z` };
};

describe('idempotency', () => {
  it('every POST carries a fresh Idempotency-Key; GET, PATCH and DELETE none', async () => {
    await proxy.reset();
    await proxy.setDecide(() => ({ kind: 'forward' }));
    await client.conversations.messages.send(conversationId, { text: 'one' });
    await client.conversations.messages.send(conversationId, { text: 'two' });
    await client.conversations.get(conversationId);
    await client.conversations.update(conversationId, { priority: 'high' });
    const [a, b] = (await proxy.to('POST', '/conversations/'));
    assert.match(String(a?.headers['idempotency-key']), UUID);
    assert.match(String(b?.headers['idempotency-key']), UUID);
    assert.notEqual(a?.headers['idempotency-key'], b?.headers['idempotency-key']);
    for (const s of [...(await proxy.to('GET', '/')), ...(await proxy.to('PATCH', '/'))]) assert.equal(s.headers['idempotency-key'], undefined);
  });

  it('retries of one call reuse its key', async () => {
    await proxy.reset();
    await proxy.setDecide((_, i) => (i < 2 ? { kind: 'respond', status: 503, headers: { 'Retry-After': '0' }, body: { status: 503, code: 'dependency_throttled' } } : { kind: 'forward' }));
    const message = await client.conversations.messages.send(conversationId, { text: 'three' });
    assert.equal(message.text, 'three');
    const keys = (await proxy.seen()).map((s) => s.headers['idempotency-key']);
    assert.equal(keys.length, 3);
    assert.equal(new Set(keys).size, 1);
  });

  it('a caller-chosen key is sent as is, and repeating the call replays the first response', async () => {
    await proxy.reset();
    await proxy.setDecide(() => ({ kind: 'forward' }));
    const key = `order-${customerId}-1`;
    const booking = await client.bookings.create({ customer: { id: customerId }, service: 'Cut', resource_id: 'chair-9', ...slot(9), timezone: 'UTC' }, { idempotencyKey: key });
    const again = await client.bookings.create({ customer: { id: customerId }, service: 'Cut', resource_id: 'chair-9', ...slot(9), timezone: 'UTC' }, { idempotencyKey: key });
    assert.deepEqual(again, booking);
    assert.deepEqual((await proxy.seen()).map((s) => s.headers['idempotency-key']), [key, key]);
    assert.equal((await proxy.seen())[1]?.responseHeaders?.get('idempotent-replayed'), 'true');
  });

  it('a POST whose response was lost is retried with its key and acts once', async () => {
    await proxy.reset();
    // The runtime books the slot and answers, but the client never gets the answer.
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'drop' } : { kind: 'forward' }));
    const booking = await client.bookings.create({ customer: { id: customerId }, service: 'Colour', resource_id: 'chair-7', ...slot(11), timezone: 'UTC' });
    assert.equal(booking.status, 'confirmed');
    assert.equal((await proxy.seen()).length, 2);
    assert.equal((await proxy.seen())[0]?.status, 201, 'the first attempt did book');
    assert.equal((await proxy.seen())[0]?.headers['idempotency-key'], (await proxy.seen())[1]?.headers['idempotency-key']);
    assert.equal((await proxy.seen())[1]?.responseHeaders?.get('idempotent-replayed'), 'true');
    // One booking, not a second attempt that would have hit booking_conflict on its own slot.
    const onChair = (await t.client.bookings.list({ customer_id: customerId }).toArray()).filter((b) => b.resource_id === 'chair-7');
    assert.deepEqual(onChair.map((b) => b.id), [booking.id]);

    await proxy.reset();
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'drop' } : { kind: 'forward' }));
    const sent = await client.conversations.messages.send(conversationId, { text: 'exactly once' });
    const copies = (await t.client.conversations.messages.list(conversationId).toArray()).filter((m) => m.text === 'exactly once');
    assert.deepEqual(copies.map((m) => m.id), [sent.id]);
  });

  it('a lost GET response is simply retried', async () => {
    await proxy.reset();
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'drop' } : { kind: 'forward' }));
    const got = await client.conversations.get(conversationId);
    assert.equal(got.id, conversationId);
    assert.equal((await proxy.seen()).length, 2);
  });
});
