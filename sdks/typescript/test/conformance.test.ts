// The conformance suite shared by the official SDKs (sdks/conformance/scenarios.json): one test per
// scenario, named `conformance: <id>`, doing what its steps say against the running system.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  ConflictError,
  MessagingClient,
  PreconditionFailedError,
  RateLimitError,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';
import { baseUrl, eventually, newTenant, phone, platformClient, startProxy, startReceiver, type TestTenant } from './helpers.js';

const SCENARIOS = (
  JSON.parse(readFileSync(new URL('../../conformance/scenarios.json', import.meta.url), 'utf8')) as { scenarios: { id: string }[] }
).scenarios.map((s) => s.id);

let t: TestTenant;
before(async () => {
  t = await newTenant();
});

/** A day ahead, as `YYYY-MM-DD` (bookings may not lie in the past). */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const scenarios: Record<string, () => Promise<void>> = {
  'create-tenant': async () => {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const created = await platformClient().tenants.create({
      name: 'Conformance Dental',
      plan: 'pro',
      admin: { email, password: t.adminPassword, name: 'Olivia Owner' },
    });
    assert.equal(created.tenant.plan, 'pro');
    assert.deepEqual([created.admin_user.email, created.admin_user.role], [email, 'admin']);
    assert.ok(created.api_key.key.startsWith('sk_'));
    const me = await new MessagingClient({ apiKey: created.api_key.key, tenantId: created.tenant.id, baseUrl: baseUrl() }).auth.me();
    assert.equal(me.kind, 'api_key');
    assert.deepEqual([me.tenant.id, me.tenant.name], [created.tenant.id, 'Conformance Dental']);
  },

  'sandbox-conversation': async () => {
    const sender = phone();
    const inbound = await t.client.channels.sandboxInbound({ from: sender, name: 'Maria', text: 'Hi! Can I book a cleaning?' });
    assert.ok('conversation' in inbound);
    const conversation = await t.client.conversations.get(inbound.conversation.id);
    assert.deepEqual([conversation.id, conversation.status, conversation.customer.phone], [inbound.conversation.id, 'open', sender]);
    const listed = conversation.messages.filter((m) => m.id === inbound.message.id);
    assert.equal(listed.length, 1, 'the inbound message is listed with the conversation');
    assert.deepEqual([listed[0]?.direction, listed[0]?.text], ['inbound', 'Hi! Can I book a cleaning?']);
  },

  'paginate-conversations': async () => {
    const fresh = await newTenant();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await fresh.client.conversations.create({ channel: 'sandbox', customer: { phone: phone() } })).id);
    const page = await fresh.client.conversations.list({ limit: 2 }).page();
    assert.equal(page.data.length, 2);
    assert.ok(page.hasMore && page.nextCursor);
    const ids: string[] = [];
    for await (const c of fresh.client.conversations.list({ limit: 2 })) ids.push(c.id);
    assert.equal(new Set(ids).size, 5, 'each conversation once');
    assert.deepEqual([...ids].sort(), [...created].sort());
  },

  'send-and-receipts': async () => {
    const proxy = await startProxy();
    try {
      const viaProxy = t.clientWith({ baseUrl: proxy.url });
      const inbound = await viaProxy.channels.sandboxInbound({ from: phone(), text: 'Are you open tomorrow?' });
      assert.ok('conversation' in inbound);
      const sent = await viaProxy.conversations.messages.send(inbound.conversation.id, { text: 'Yes, from 9 to 18.' });
      assert.equal(sent.status, 'queued');
      assert.equal((await proxy.to('POST', '/conversations/')).at(-1)?.status, 202);
      const read = await eventually(
        async () => (await t.client.conversations.messages.list(inbound.conversation.id, { limit: 5 }).page()).data.find((m) => m.id === sent.id),
        (m) => m?.status === 'read',
      );
      assert.ok(read?.delivered_at && read.read_at);
    } finally {
      await proxy.close();
    }
  },

  'booking-conflict': async () => {
    const inbound = await t.client.channels.sandboxInbound({ from: phone(), name: 'Bea', text: 'I want to book' });
    assert.ok('conversation' in inbound);
    const day = dayAhead(1);
    const book = (service: string, from: string, to: string) =>
      t.client.bookings.create({
        customer: { id: inbound.conversation.customer.id },
        service,
        resource_id: 'chair-conformance',
        start_at: `${day}T${from}:00Z`,
        end_at: `${day}T${to}:00Z`,
        timezone: 'UTC',
      });
    const booking = await book('Dental cleaning', '10:00', '10:45');
    assert.equal(booking.status, 'confirmed');
    await assert.rejects(
      book('Check-up', '10:30', '11:00'),
      (e: unknown) => {
        assert.ok(e instanceof ConflictError);
        assert.deepEqual([e.status, e.code], [409, 'booking_conflict']);
        assert.ok(typeof e.requestId === 'string' && e.requestId !== '');
        // The problem names the booking in the way.
        assert.deepEqual(e.problem.conflicting_booking, {
          id: booking.id,
          resource_id: 'chair-conformance',
          start_at: booking.start_at,
          end_at: booking.end_at,
        });
        return true;
      },
    );
  },

  'stale-version': async () => {
    const conversation = await t.client.conversations.create({ channel: 'sandbox', customer: { phone: phone() }, priority: 'normal' });
    const current = await t.client.conversations.get(conversation.id);
    const updated = await t.client.conversations.update(conversation.id, { status: 'pending' }, { ifMatch: current.version });
    assert.deepEqual([updated.version, updated.status], [current.version + 1, 'pending']);
    await assert.rejects(
      t.client.conversations.update(conversation.id, { priority: 'urgent' }, { ifMatch: current.version }),
      (e: unknown) => e instanceof PreconditionFailedError && e.status === 412 && e.code === 'version_mismatch',
    );
    const afterwards = await t.client.conversations.get(conversation.id);
    assert.deepEqual([afterwards.version, afterwards.priority, afterwards.status], [updated.version, 'normal', 'pending']);
  },

  analyze: async () => {
    const analysis = await t.client.ai.analyze({ text: 'I want to book an appointment for tomorrow at 3pm' });
    assert.equal(analysis.intent.name, 'book_appointment');
    assert.ok(['negative', 'neutral', 'positive'].includes(analysis.sentiment.label));
    assert.equal(analysis.language, 'en');
    const datetimes = analysis.entities.filter((e) => e.type === 'datetime');
    assert.equal(datetimes.length, 1);
    assert.ok(String(datetimes[0]?.value).includes('T15:00:00'));
  },

  'webhook-verify': async () => {
    const receiver = await startReceiver();
    try {
      const fresh = await newTenant();
      const endpoint = await fresh.client.webhooks.create({ url: receiver.url('/hook'), events: ['conversation.*'] });
      const inbound = await fresh.client.channels.sandboxInbound({ from: phone(), text: 'Hello webhooks' });
      assert.ok('conversation' in inbound);
      const conversationId = inbound.conversation.id;
      const delivery = await eventually(
        async () => (await receiver.received()).find((r) => r.body.includes('"type":"conversation.created"') && r.body.includes(conversationId)),
        (r) => r !== undefined,
      );
      assert.ok(delivery);
      const event = await verifyWebhook(delivery.body, delivery.headers, endpoint.webhook_secret);
      assert.equal(event.type, 'conversation.created');
      assert.ok(event.type === 'conversation.created' && event.data.conversation.id === conversationId);
      assert.deepEqual([event.id, event.tenant_id], [delivery.headers['webhook-id'], fresh.tenantId]);
      const refused = (e: unknown) => e instanceof WebhookVerificationError && e.reason === 'invalid_signature';
      await assert.rejects(verifyWebhook(delivery.body.replace('conversation.created', 'conversation.updated'), delivery.headers, endpoint.webhook_secret), refused);
      await assert.rejects(verifyWebhook(delivery.body, delivery.headers, `whsec_${randomBytes(32).toString('base64')}`), refused);
    } finally {
      await receiver.close();
    }
  },

  'rate-limit-retry': async () => {
    const proxy = await startProxy((_request, index) =>
      index === 0
        ? { kind: 'respond', status: 429, headers: { 'Retry-After': '1' }, body: { status: 429, code: 'rate_limited', title: 'Too Many Requests' } }
        : { kind: 'forward' },
    );
    try {
      const me = await t.clientWith({ baseUrl: proxy.url }).auth.me();
      assert.equal(me.tenant.id, t.tenantId);
      assert.deepEqual(
        (await proxy.seen()).map((s) => s.status),
        [429, 200],
        'succeeded on its second attempt',
      );
      // The scenario's point: the retry waited out Retry-After (a lower bound, measured by the proxy).
      const [first, second] = (await proxy.seen());
      assert.ok(first && second && second.at - first.at >= 1000);

      // Cleared, the next request is the proxy's first again: answered 429.
      await proxy.reset();
      await assert.rejects(
        t.clientWith({ baseUrl: proxy.url, maxRetries: 0 }).auth.me(),
        (e: unknown) => e instanceof RateLimitError && e.status === 429 && e.retryAfter === 1,
      );
      assert.equal((await proxy.seen()).length, 1);
    } finally {
      await proxy.close();
    }
  },
};

describe('conformance', () => {
  it('has exactly one test per scenario of sdks/conformance/scenarios.json', () => {
    assert.deepEqual(Object.keys(scenarios).sort(), [...SCENARIOS].sort());
  });
  for (const id of SCENARIOS) {
    const run = scenarios[id];
    if (run) it(`conformance: ${id}`, run);
  }
});

