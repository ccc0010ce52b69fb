import Stripe from 'stripe';
import { REFUND_RETRY_MS } from '../../functions/payments/store';
import { refundPayment, sweepPayment } from '../../functions/payments/service';
import {
  authOf,
  call,
  createTenant,
  DELIVERED_WITHIN_MS,
  eventually,
  fetchAsClient,
  listEventually,
  scheduledRunLateMs,
  type TestTenant,
} from '../support/api';
import { startReceiver } from '../support/receiver';
import { useRuntimeAws } from '../support/aws';
import { failCalls, throttled, writesTo } from '../support/dynamo-faults';
import { testRuntime } from '../support/runtime';

// Timeouts cover the waits under the chaos mode: a refund left to the sweeper is sent within
// REFUND_SENT_WITHIN_MS (110 s).

/**
 * Payments end to end: bookings that wait for a deposit, paid through the sandbox checkout page or through
 * Stripe (the fake Stripe server, driven by the official client inside the runtime, with events signed by the
 * library's own test-header helper), the hold's expiry by the sweeper, refunds by policy, and the races.
 */
let t: TestTenant;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
beforeAll(async () => {
  t = await createTenant();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000);
const slot = (startHours: number, resource: string) => ({
  resource_id: resource,
  start_at: hoursFromNow(startHours).toISOString(),
  end_at: new Date(hoursFromNow(startHours).getTime() + 30 * 60_000).toISOString(),
});
let phoneSeq = 100;
const bookingBody = (tenant: TestTenant, extra: Record<string, unknown>) => ({
  customer: { phone: `+3519123${String(phoneSeq++).padStart(5, '0')}` },
  service: 'Haircut',
  timezone: 'Europe/Lisbon',
  ...extra,
});
const book = (tenant: TestTenant, extra: Record<string, unknown>) =>
  call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(tenant, extra) });
const getPayment = (tenant: TestTenant, id: string) => call('GET', `/payments/${id}`, authOf(tenant));
const getBooking = (tenant: TestTenant, id: string) => call('GET', `/bookings/${id}`, authOf(tenant));
/**
 * A refund is sent right after it is reserved; one that could not be (the function stopped, a call failed)
 * is sent by the sweeper a minute on (REFUND_RETRY_MS), or later by a scheduled run's lease lapse.
 */
const REFUND_SENT_WITHIN_MS = REFUND_RETRY_MS + 15_000 + scheduledRunLateMs();
const refundedPayment = async (tenant: TestTenant, id: string) =>
  (
    await eventually(
      () => getPayment(tenant, id),
      (res) => !(res.body.refunds as { status: string }[]).some((r) => r.status === 'pending'),
      REFUND_SENT_WITHIN_MS,
    )
  ).body;

/** Presses a button of the sandbox checkout page, as the customer's browser would (a form POST, no body). */
async function press(link: string, button: 'pay' | 'decline') {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = new RegExp(`action="([^"]+/${button}\\?sig=[^"]+)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');
  expect(action).toBeDefined();
  // A 503 (a throttled database, nothing written) says to try again after Retry-After: the customer presses again.
  const res = await fetchAsClient(new URL(action ?? '', link), () => ({ method: 'POST' }));
  return { status: res.status, html: await res.text() };
}

const eventsOf = (r: Awaited<ReturnType<typeof startReceiver>>) =>
  r.received.map((d) => JSON.parse(d.body) as { type: string; data: Record<string, any> });

describe('sandbox deposit', () => {
  it(
    'a booking paid through the checkout page confirms itself and the events reach a subscribed webhook',
    async () => {
      const r = await startReceiver();
      receivers.push(r);
      const tenant = await createTenant();
      expect(
        (
          await call('POST', '/webhooks', {
            ...authOf(tenant),
            body: { url: r.url(), events: ['payment.*', 'booking.*'] },
          })
        ).status,
      ).toBe(201);
      const created = await book(tenant, {
        ...slot(72, 'chair-1'),
        payment: { purpose: 'deposit', amount: 2500, currency: 'eur' },
      });
      expect(created.status).toBe(201);
      expect(created.body.status).toBe('pending_payment');
      expect(created.body.payment).toMatchObject({ purpose: 'deposit', amount: 2500, currency: 'EUR' });
      const payment = (await getPayment(tenant, created.body.payment.id)).body;
      expect(payment).toMatchObject({ status: 'pending', provider: 'sandbox', booking_id: created.body.id });

      // The slot is held while the link is open.
      expect((await book(tenant, slot(72, 'chair-1'))).status).toBe(409);

      const paid = await press(payment.link, 'pay');
      expect(paid.status).toBe(200);
      expect(paid.html).toContain('data-status="succeeded"');
      expect((await getBooking(tenant, created.body.id)).body.status).toBe('confirmed');
      expect((await getPayment(tenant, payment.id)).body.status).toBe('succeeded');

      const seen = await eventually(
        async () => eventsOf(r).map((e) => e.type),
        (types) =>
          ['booking.created', 'payment.created', 'payment.succeeded', 'booking.confirmed'].every((type) =>
            types.includes(type),
          ),
        DELIVERED_WITHIN_MS,
      );
      expect(seen).toEqual(
        expect.arrayContaining(['booking.created', 'payment.created', 'payment.succeeded', 'booking.confirmed']),
      );
      const succeeded = eventsOf(r).find((e) => e.type === 'payment.succeeded');
      expect(succeeded?.data).toMatchObject({
        booking_id: created.body.id,
        changes: { status: { from: 'pending', to: 'succeeded' } },
      });

      // Once paid, the page offers no button, and a replayed Pay changes nothing.
      expect(await (await fetch(payment.link)).text()).not.toContain('id="pay"');
      await fetch(payment.link.replace('?', '/pay?'), { method: 'POST' });
      expect((await getPayment(tenant, payment.id)).body.version).toBe(2);
    },
    DELIVERED_WITHIN_MS + 60_000,
  );

  it('a declined payment cancels the booking and frees its slot', async () => {
    const created = await book(t, {
      ...slot(80, 'chair-2'),
      payment: { purpose: 'full', amount: 5000, currency: 'EUR' },
    });
    const payment = (await getPayment(t, created.body.payment.id)).body;
    const declined = await press(payment.link, 'decline');
    expect(declined.html).toContain('data-status="failed"');
    const booking = (await getBooking(t, created.body.id)).body;
    expect(booking).toMatchObject({
      status: 'cancelled',
      cancellation: { reason: 'payment_failed', by: { type: 'system' } },
    });
    expect((await book(t, slot(80, 'chair-2'))).status).toBe(201);
  });

  it('a link with a forged signature is not found', async () => {
    const created = await book(t, {
      ...slot(90, 'chair-3'),
      payment: { purpose: 'deposit', amount: 1000, currency: 'EUR' },
    });
    const link = (await getPayment(t, created.body.payment.id)).body.link as string;
    const forged = link.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await fetch(forged)).status).toBe(404);
    expect((await fetch(forged.replace('?', '/pay?'), { method: 'POST' })).status).toBe(404);
    expect((await getPayment(t, created.body.payment.id)).body.status).toBe('pending');
  });
});

describe('refunds', () => {
  async function paidBooking(tenant: TestTenant, startHours: number, resource: string, amount = 2500) {
    const created = await book(tenant, {
      ...slot(startHours, resource),
      payment: { purpose: 'deposit', amount, currency: 'EUR' },
    });
    expect(created.status).toBe(201);
    const payment = (await getPayment(tenant, created.body.payment.id)).body;
    await press(payment.link, 'pay');
    return { booking: created.body, payment };
  }

  it('a paid booking cancelled early is refunded in full by the default policy', async () => {
    const { booking, payment } = await paidBooking(t, 100, 'room-1');
    expect((await call('DELETE', `/bookings/${booking.id}`, authOf(t))).status).toBe(200);
    const after = await refundedPayment(t, payment.id);
    expect(after).toMatchObject({ status: 'refunded', amount_refunded: 2500 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ amount: 2500, reason: 'booking_cancelled', status: 'succeeded' }),
    ]);
  }, 170_000);

  it('a paid booking cancelled late gets the policy\u2019s share back', async () => {
    const tenant = await createTenant();
    const policy = await call('PATCH', '/payments/settings', {
      ...authOf(tenant),
      body: { refund_policy: { full_refund_hours_before: 24, late_refund_percent: 50 } },
    });
    expect(policy.status).toBe(200);
    const { booking, payment } = await paidBooking(tenant, 3, 'room-2');
    await call('DELETE', `/bookings/${booking.id}`, authOf(tenant));
    expect(await refundedPayment(tenant, payment.id)).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: 1250,
    });
  }, 170_000);

  it(
    'two refunds racing never give back more than was paid; refunds of unpaid payments and over the amount are refused',
    async () => {
      const { payment } = await paidBooking(t, 110, 'room-3');
      const [a, b] = await Promise.all([
        call('POST', `/payments/${payment.id}/refund`, { ...authOf(t), body: { amount: 1500 } }),
        call('POST', `/payments/${payment.id}/refund`, { ...authOf(t), body: { amount: 1500 } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 422]);
      expect([a, b].find((r) => r.status === 422)?.body.code).toBe('refund_exceeds_payment');
      // A refund whose send or record was throttled answers pending and is settled by the sweeper.
      expect(await refundedPayment(t, payment.id)).toMatchObject({
        status: 'partially_refunded',
        amount_refunded: 1500,
      });
      const rest = await call('POST', `/payments/${payment.id}/refund`, { ...authOf(t), body: {} });
      expect(rest.status).toBe(200);
      expect(rest.body.refunds).toContainEqual(expect.objectContaining({ amount: 1000, reason: 'requested' }));
      expect(await refundedPayment(t, payment.id)).toMatchObject({ status: 'refunded', amount_refunded: 2500 });
      expect((await call('POST', `/payments/${payment.id}/refund`, { ...authOf(t), body: {} })).body.code).toBe(
        'payment_not_refundable',
      );

      const unpaid = await book(t, {
        ...slot(120, 'room-3'),
        payment: { purpose: 'deposit', amount: 900, currency: 'EUR' },
      });
      const refused = await call('POST', `/payments/${unpaid.body.payment.id}/refund`, { ...authOf(t), body: {} });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('payment_not_refundable');
    },
    2 * REFUND_SENT_WITHIN_MS + 60_000,
  );

  it('only admins refund', async () => {
    const key = await call('POST', '/api-keys', { ...authOf(t), body: { name: 'agent', role: 'agent' } });
    const { payment } = await paidBooking(t, 130, 'room-4');
    const asAgent = { tenant: t.tenantId, token: key.body.key as string };
    expect((await call('POST', `/payments/${payment.id}/refund`, { ...asAgent, body: {} })).status).toBe(403);
  });

  it('a refund reserved and then not confirmed answers with it pending, never an error to retry into a second refund', async () => {
    useRuntimeAws();
    const { payment } = await paidBooking(t, 140, 'room-5');
    // Every write that would record the refund as made fails (throttled), in this process.
    const recordsRefund = (command: string, input: Record<string, unknown>) =>
      writesTo('PAY#')(command, input) && JSON.stringify(input).includes('payment.refunded');
    const stop = failCalls(recordsRefund, throttled, 20);
    let answered;
    try {
      answered = await refundPayment(t.tenantId, payment.id, 1000, new Date());
    } finally {
      stop();
    }
    expect(answered).toMatchObject({ status: 'succeeded', amount_refunded: 0 });
    expect(answered.refunds).toEqual([expect.objectContaining({ amount: 1000, status: 'pending' })]);
    // The sweeper sends it (same idempotency key) and records it: once.
    await sweepPayment(t.tenantId, payment.id, new Date(Date.now() + REFUND_RETRY_MS));
    expect(await refundedPayment(t, payment.id)).toMatchObject({ status: 'partially_refunded', amount_refunded: 1000 });
  });
});

describe('bad input', () => {
  const link = (body: Record<string, unknown>) =>
    call('POST', '/payments', { ...authOf(t), body: { purpose: 'other', currency: 'EUR', amount: 100, ...body } });
  let conversationId: string;
  beforeAll(async () => {
    const inbound = await call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: { from: '+351912000999', text: 'hi' },
    });
    conversationId = inbound.body.conversation.id;
  });

  it.each([
    [{ amount: 0 }, 'invalid_amount'],
    [{ amount: -5 }, 'invalid_amount'],
    [{ amount: 10.5 }, 'invalid_amount'],
    [{ amount: 100_000_000 }, 'invalid_amount'],
    [{ currency: 'XYZ' }, 'unsupported_currency'],
  ])('%j is refused with %s', async (body, code) => {
    const res = await link({ conversation_id: conversationId, ...body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(code);
  });

  it('takes zero-decimal currencies in whole units and sends the link into the conversation', async () => {
    const res = await link({ conversation_id: conversationId, amount: 5000, currency: 'jpy', send: true });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({ amount: 5000, currency: 'JPY', conversation_id: conversationId });
    expect(res.body.message_id).toMatch(/^msg_/);
    // The messages list is eventually consistent: it shows the link's message within moments.
    const messages = await listEventually(`/conversations/${conversationId}/messages`, authOf(t), (body) =>
      body.data.some((m: { id: string }) => m.id === res.body.message_id),
    );
    expect(JSON.stringify(messages.body)).toContain('JPY 5000');
  });

  it('a link needs a booking or a conversation', async () => {
    expect((await link({})).body.code).toBe('payment_owner_required');
  });
});

describe('hold expiry (the sweeper)', () => {
  it(
    'an unpaid hold expires and frees the slot; a payment after it is refunded in full',
    async () => {
      const r = await startReceiver();
      receivers.push(r);
      const tenant = await createTenant();
      await call('POST', '/webhooks', { ...authOf(tenant), body: { url: r.url(), events: ['payment.*'] } });
      expect((await call('PATCH', '/payments/settings', { ...authOf(tenant), body: { hold_minutes: 1 } })).status).toBe(
        200,
      );
      const created = await book(tenant, {
        ...slot(50, 'desk-1'),
        payment: { purpose: 'deposit', amount: 700, currency: 'EUR' },
      });
      const payment = (await getPayment(tenant, created.body.payment.id)).body;
      const booking = await eventually(
        async () => (await getBooking(tenant, created.body.id)).body,
        (b) => b.status === 'cancelled',
        150_000,
      );
      expect(booking.cancellation).toMatchObject({ reason: 'payment_expired' });
      expect((await getPayment(tenant, payment.id)).body.status).toBe('expired');
      expect((await book(tenant, slot(50, 'desk-1'))).status).toBe(201);

      // The customer pays the moment after: the money is taken and given back, the booking stays cancelled.
      const page = await fetch(payment.link);
      expect(await page.text()).toContain('data-status="expired"');
      const late = await fetchAsClient(payment.link.replace('?', '/pay?'), () => ({ method: 'POST' }));
      expect(late.status).toBe(200);
      expect(await refundedPayment(tenant, payment.id)).toMatchObject({
        status: 'refunded',
        status_reason: 'late_payment',
        amount_refunded: 700,
      });
      expect((await getBooking(tenant, created.body.id)).body.status).toBe('cancelled');
      await eventually(
        async () => eventsOf(r).map((e) => e.type),
        (types) => ['payment.expired', 'payment.succeeded', 'payment.refunded'].every((x) => types.includes(x)),
        DELIVERED_WITHIN_MS,
      );
    },
    150_000 + REFUND_SENT_WITHIN_MS + DELIVERED_WITHIN_MS + 30_000,
  );
});

describe('Stripe', () => {
  const WEBHOOK_SECRET = 'whsec_test_signing_secret_0123456789';
  let stripeTenant: TestTenant;
  const fakeStripe = (path: string, init?: RequestInit) => fetch(`${testRuntime().stripeUrl}${path}`, init);
  const deliver = (tenant: TestTenant, payload: string, header: string) =>
    call('POST', `/payments/stripe/webhook/${tenant.tenantId}`, {
      rawBody: payload,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': header },
    });
  const signed = (payload: string, timestamp?: number) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
  const stripeEvent = (
    type: string,
    object: Record<string, unknown>,
    id = `evt_${Math.random().toString(36).slice(2)}`,
  ) =>
    JSON.stringify({
      id,
      object: 'event',
      type,
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object },
    });

  beforeAll(async () => {
    stripeTenant = await createTenant();
  });

  it('connects with a key Stripe accepts, and never returns the secrets', async () => {
    const refused = await call('POST', '/payments/stripe', {
      ...authOf(stripeTenant),
      body: { secret_key: 'rk_test_invalidKey0123456789', webhook_secret: WEBHOOK_SECRET },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('stripe_credentials_invalid');
    const connected = await call('POST', '/payments/stripe', {
      ...authOf(stripeTenant),
      body: { secret_key: 'rk_test_goodKey0123456789abcdef', webhook_secret: WEBHOOK_SECRET },
    });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ provider: 'stripe', stripe: { livemode: false }, hold_minutes: 30 });
    const read = await call('GET', '/payments/settings', authOf(stripeTenant));
    expect(read.text).not.toContain(WEBHOOK_SECRET);
    expect(read.text).not.toContain('goodKey0123456789abcdef');
  });

  it(
    'a deposit paid through Checkout confirms the booking; replays, forgeries, stale and foreign events change nothing',
    async () => {
      const r = await startReceiver();
      receivers.push(r);
      await call('POST', '/webhooks', {
        ...authOf(stripeTenant),
        body: { url: r.url(), events: ['payment.*', 'booking.*'] },
      });
      const created = await book(stripeTenant, {
        ...slot(60, 'chair-s'),
        payment: { purpose: 'deposit', amount: 3000, currency: 'EUR' },
      });
      expect(created.status).toBe(201);
      const payment = (await getPayment(stripeTenant, created.body.payment.id)).body;
      expect(payment.link).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
      const sessionId = payment.provider_ids.checkout_session_id as string;
      const { session } = (await (await fakeStripe(`/__pay/${sessionId}`, { method: 'POST' })).json()) as {
        session: Record<string, unknown>;
      };
      expect(session.metadata).toMatchObject({
        payment_id: payment.id,
        tenant_id: stripeTenant.tenantId,
        booking_id: created.body.id,
      });

      const event = stripeEvent('checkout.session.completed', session);
      // Forged and stale signatures: 400, nothing applied.
      const forged = await deliver(stripeTenant, event, signed(event).replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`));
      expect(forged.status).toBe(400);
      expect(forged.body.code).toBe('invalid_signature');
      const stale = await deliver(stripeTenant, event, signed(event, Math.floor(Date.now() / 1000) - 3600));
      expect(stale.status).toBe(400);
      expect((await getPayment(stripeTenant, payment.id)).body.status).toBe('pending');

      const applied = await deliver(stripeTenant, event, signed(event));
      expect(applied.body).toEqual({ received: true, outcome: 'applied' });
      expect((await getBooking(stripeTenant, created.body.id)).body.status).toBe('confirmed');
      expect((await deliver(stripeTenant, event, signed(event))).body.outcome).toBe('duplicate');

      // Signed with this tenant's secret but naming another tenant's payment: ignored.
      const foreign = stripeEvent('checkout.session.expired', {
        ...session,
        metadata: { payment_id: payment.id, tenant_id: t.tenantId },
      });
      expect((await deliver(stripeTenant, foreign, signed(foreign))).body.outcome).toBe('ignored');

      await eventually(
        async () => eventsOf(r).map((e) => e.type),
        (types) =>
          ['booking.created', 'payment.created', 'payment.succeeded', 'booking.confirmed'].every((type) =>
            types.includes(type),
          ),
        DELIVERED_WITHIN_MS,
      );

      // A refund through the API reaches Stripe, idempotently keyed on our refund id: one whose send was
      // throttled answers pending, and the sweeper sends it again with the same key.
      const refunded = await call('POST', `/payments/${payment.id}/refund`, {
        ...authOf(stripeTenant),
        body: { amount: 1000 },
      });
      expect(refunded.status).toBe(200);
      expect(await refundedPayment(stripeTenant, payment.id)).toMatchObject({
        status: 'partially_refunded',
        amount_refunded: 1000,
      });
      const requests = (await (await fakeStripe('/__requests')).json()) as { path: string; idempotency_key: string }[];
      const refundRequests = requests.filter((q) => q.path === '/v1/refunds');
      expect(refundRequests.length).toBeGreaterThan(0);
      expect(new Set(refundRequests.map((q) => q.idempotency_key))).toEqual(
        new Set([`refund-${refunded.body.refunds[0].id}`]),
      );
    },
    DELIVERED_WITHIN_MS + REFUND_SENT_WITHIN_MS + 60_000,
  );

  it('a refund reported before its success records both; a success after the hold closed is refunded', async () => {
    const created = await book(stripeTenant, {
      ...slot(65, 'chair-s'),
      payment: { purpose: 'full', amount: 4000, currency: 'USD' },
    });
    const payment = (await getPayment(stripeTenant, created.body.payment.id)).body;
    const { session, intent } = (await (
      await fakeStripe(`/__pay/${payment.provider_ids.checkout_session_id as string}`, { method: 'POST' })
    ).json()) as { session: Record<string, unknown>; intent: Record<string, unknown> };
    const charge = {
      id: 'ch_test_1',
      object: 'charge',
      amount: 4000,
      amount_refunded: 4000,
      payment_intent: intent.id,
      metadata: session.metadata,
    };
    const refundEvent = stripeEvent('charge.refunded', charge);
    expect((await deliver(stripeTenant, refundEvent, signed(refundEvent))).body.outcome).toBe('applied');
    expect((await getPayment(stripeTenant, payment.id)).body).toMatchObject({
      status: 'refunded',
      amount_refunded: 4000,
    });
    const completed = stripeEvent('checkout.session.completed', session);
    expect((await deliver(stripeTenant, completed, signed(completed))).body.outcome).toBe('unchanged');

    // Withdrawn, then paid at Stripe anyway (the event arrives after): taken and refunded in full.
    const other = await book(stripeTenant, {
      ...slot(70, 'chair-s'),
      payment: { purpose: 'deposit', amount: 2000, currency: 'EUR' },
    });
    const otherPayment = (await getPayment(stripeTenant, other.body.payment.id)).body;
    const paidAtStripe = (await (
      await fakeStripe(`/__pay/${otherPayment.provider_ids.checkout_session_id as string}`, { method: 'POST' })
    ).json()) as { session: Record<string, unknown> };
    // Our cancel asks Stripe to expire the session, which is complete already: the payment stands, refunded.
    await call('POST', `/payments/${otherPayment.id}/cancel`, { ...authOf(stripeTenant), body: {} });
    const late = stripeEvent('checkout.session.completed', paidAtStripe.session);
    await deliver(stripeTenant, late, signed(late));
    const settled = await refundedPayment(stripeTenant, otherPayment.id);
    expect(settled).toMatchObject({ status: 'refunded', status_reason: 'late_payment', amount_refunded: 2000 });
    expect((await getBooking(stripeTenant, other.body.id)).body.status).toBe('cancelled');
  }, 170_000);
});
