import { Webhook } from 'standardwebhooks';
import {
  authOf,
  call,
  createTenant,
  DELIVERED_WITHIN_MS,
  eventually,
  listEventually,
  serverClockSkewMs,
  settlesTo,
  type TestTenant,
} from '../support/api';
import { startReceiver } from '../support/receiver';
import { ACTIVE_FROM_MARGIN_MS } from '../../functions/webhooks/webhook';
import { testRuntime } from '../support/runtime';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// Timeouts cover the waits under the chaos mode: a delivery left to the sweeper may wait out a timed-out
// sweep's lease (35 s, scheduledRunLateMs).

/** The runtime runs with WEBHOOK_RETRY_DELAYS=1,1,1,1,1 and WEBHOOK_TIMEOUT_MS=1500 (test/support/global-setup.mjs). */
let t: TestTenant;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
beforeAll(async () => {
  t = await createTenant();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const register = (url: string, events: string[] = ['*'], tenant = t, extra: Record<string, unknown> = {}) =>
  call('POST', '/webhooks', { ...authOf(tenant), body: { url, events, ...extra } });
const inbound = (tenant: TestTenant, from: string, text = 'hello') =>
  call('POST', '/channels/sandbox/inbound', { ...authOf(tenant), body: { from, text } });
const headersOf = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

describe('registration', () => {
  it('returns the secret once and never again', async () => {
    const r = await receiver();
    const created = await register(r.url(), ['conversation.*'], t, { description: 'CRM sync' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: r.url(),
      events: ['conversation.*'],
      description: 'CRM sync',
      is_active: true,
      version: 1,
    });
    expect(created.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const got = await call('GET', `/webhooks/${created.body.id}`, authOf(t));
    expect(got.body.webhook_secret).toBeUndefined();
    expect(got.text).not.toContain('whsec_');
    expect((await call('GET', '/webhooks', authOf(t))).text).not.toContain('whsec_');
  });

  it("shows agents only the URL's origin (its path and query are often the receiver's token)", async () => {
    const r = await receiver();
    const url = r.url('/hooks/catch/123/abc?token=s3cret');
    const created = await register(url, ['conversation.*']);
    expect(created.body).toMatchObject({ url, url_redacted: false });
    const key = await call('POST', '/api-keys', { ...authOf(t), body: { name: 'agent key', role: 'agent' } });
    const asAgent = { tenant: t.tenantId, token: key.body.key as string };
    const origin = new URL(url).origin;
    const got = await call('GET', `/webhooks/${created.body.id}`, asAgent);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: created.body.id, url: `${origin}/`, url_redacted: true });
    const listed = await listEventually('/webhooks?limit=100', asAgent, (body) =>
      body.data.some((e: { id: string }) => e.id === created.body.id),
    );
    expect(listed.text).not.toContain('s3cret');
    expect(listed.text).not.toContain('catch/123');
    expect(listed.body.data.find((e: { id: string }) => e.id === created.body.id)).toMatchObject({
      url: `${origin}/`,
      url_redacted: true,
    });
    // Admins read it whole.
    const asAdmin = await call('GET', `/webhooks/${created.body.id}`, authOf(t));
    expect(asAdmin.body).toMatchObject({ url, url_redacted: false });
  });

  it('validates the URL and the event types', async () => {
    const bad = async (url: string, events = ['*']) => (await register(url, events)).status;
    expect(await bad('http://example.com/hook')).toBe(422);
    expect(await bad('https://user:pw@example.com/hook')).toBe(422);
    expect(await bad(`https://example.com/${'a'.repeat(2050)}`)).toBe(422);
    expect(await bad('https://localhost/hook', ['conversation.deleted'])).toBe(422);
    expect(await bad('https://localhost/hook', [])).toBe(422);
    expect((await register('https://localhost/hook', ['payment.*', 'booking.created'])).status).toBe(201);
    // Nothing the URL parser would drop or rewrite: the address shown is the address called.
    for (const url of [
      ' https://localhost/hook',
      'https://localhost/hook\\@evil',
      'https://localhost/a#b',
      'https://local\thost/',
    ])
      expect(await bad(url)).toBe(422);
    // Its normalised form is what is stored and called, so that is what must fit the limit.
    expect(await bad(`https://localhost/${'é'.repeat(1000)}`)).toBe(422);
    const normalised = await register('https://LOCALHOST:443/hook', ['booking.*']);
    expect(normalised.body.url).toBe('https://localhost/hook');
  });

  it('deletes on condition of If-Match, as it updates', async () => {
    const { body: endpoint } = await register('https://localhost/hook', ['booking.*']);
    const path = `/webhooks/${endpoint.id}`;
    const del = (ifMatch: string) => call('DELETE', path, { ...authOf(t), headers: { 'If-Match': ifMatch } });
    expect(await del('"99"')).toMatchObject({ status: 412, body: { code: 'version_mismatch' } });
    expect(await del('garbage')).toMatchObject({ status: 400, body: { code: 'invalid_if_match' } });
    expect((await call('GET', path, authOf(t))).status).toBe(200);
    expect((await del(`"${endpoint.version}"`)).status).toBe(204);
    expect((await del(`"${endpoint.version}"`)).status).toBe(404);
    // `*` matches any version of an endpoint that exists, as for PATCH.
    const { body: other } = await register('https://localhost/other', ['booking.*']);
    await call('PATCH', `/webhooks/${other.id}`, { ...authOf(t), body: { description: 'moved on' } });
    expect((await call('DELETE', `/webhooks/${other.id}`, { ...authOf(t), headers: { 'If-Match': '*' } })).status).toBe(
      204,
    );
    expect((await call('GET', `/webhooks/${other.id}`, authOf(t))).status).toBe(404);
  });

  it('never lets concurrent registrations take a tenant past 50 endpoints', async () => {
    const tenant = await createTenant();
    for (let i = 0; i < 45; i++) expect((await register(`https://localhost/n${i}`, ['*'], tenant)).status).toBe(201);
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => register(`https://localhost/burst${i}`, ['*'], tenant)),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of burst.filter((r) => r.status !== 201))
      expect(r).toMatchObject({ status: 422, body: { code: 'too_many_webhooks' } });
    const listed = await listEventually('/webhooks?limit=100', authOf(tenant), (body) => body.data.length >= 50);
    expect(listed.body.data).toHaveLength(50);
  });

  it('rotates a secret on condition of If-Match, and a refused rotation changes nothing', async () => {
    const { body: endpoint } = await register('https://localhost/hook', ['booking.*']);
    const rotate = (ifMatch: string) =>
      call('POST', `/webhooks/${endpoint.id}/rotate-secret`, { ...authOf(t), headers: { 'If-Match': ifMatch } });
    expect(await rotate(`"${endpoint.version + 1}"`)).toMatchObject({
      status: 412,
      body: { code: 'version_mismatch' },
    });
    for (const malformed of ['garbage', `"${endpoint.version}`, `${endpoint.version}"`])
      expect(await rotate(malformed)).toMatchObject({ status: 400, body: { code: 'invalid_if_match' } });
    const unchanged = await call('GET', `/webhooks/${endpoint.id}`, authOf(t));
    expect(unchanged.body.version).toBe(endpoint.version);
    const rotated = await rotate(`"${endpoint.version}"`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('etag')).toBe(`"${endpoint.version + 1}"`);
    expect(rotated.body.webhook_secret).not.toBe(endpoint.webhook_secret);
    // The version it was read at is gone: the same If-Match is refused now.
    expect((await rotate(`"${endpoint.version}"`)).status).toBe(412);
    expect((await rotate('*')).status).toBe(200);
    // Without If-Match, a rotation that meets another rotation is 409 rather than rotating again, which
    // would end at once the secret the other one just promised for 24 hours; no 412 without If-Match.
    const before = (await call('GET', `/webhooks/${endpoint.id}`, authOf(t))).body.version;
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', `/webhooks/${endpoint.id}/rotate-secret`, authOf(t))),
    );
    const rotatedOk = burst.filter((r) => r.status === 200);
    expect(rotatedOk.length).toBeGreaterThanOrEqual(1);
    for (const r of burst.filter((r) => r.status !== 200))
      expect(r).toMatchObject({ status: 409, body: { code: 'concurrent_update' } });
    expect((await call('GET', `/webhooks/${endpoint.id}`, authOf(t))).body.version).toBe(before + rotatedOk.length);
    // A change that is not a rotation does not stop one: it is made again on the fresh endpoint.
    const [patched, rotatedAgain] = await Promise.all([
      call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(t), body: { description: 'meanwhile' } }),
      call('POST', `/webhooks/${endpoint.id}/rotate-secret`, authOf(t)),
    ]);
    expect([patched.status, rotatedAgain.status]).toEqual([200, 200]);
  });
});

describe('delivery', () => {
  it(
    "delivers a sent message's status events, carried on the message's write, once each and signed",
    async () => {
      const tenant = await createTenant();
      const r = await receiver();
      const { body: endpoint } = await register(
        r.url(),
        ['conversation.message.sent', 'conversation.message.delivered', 'conversation.message.read'],
        tenant,
      );
      const { body } = await inbound(tenant, '+491516000009');
      const sent = await call('POST', `/conversations/${body.conversation.id}/messages`, {
        ...authOf(tenant),
        body: { text: 'See you at ten.' },
      });
      expect(sent.status).toBe(202);
      await eventually(
        async () => r.received.length,
        (n) => n >= 3,
        DELIVERED_WITHIN_MS,
      );
      const verifier = new Webhook(endpoint.webhook_secret);
      const payloads = r.received.map(
        (req) => verifier.verify(req.body, headersOf(req.headers)) as { id: string; type: string; data: any },
      );
      expect(payloads.map((p) => p.type).sort()).toEqual([
        'conversation.message.delivered',
        'conversation.message.read',
        'conversation.message.sent',
      ]);
      for (const p of payloads) expect(p.data.message.id).toBe(sent.body.id);
      // The same events the list shows (stored by the dispatcher from the message's record).
      const listed = await eventually(
        async () =>
          (await call('GET', '/events?type=conversation.message.read', authOf(tenant))).body.data as { id: string }[],
        (events) => events.length === 1,
      );
      expect(payloads.find((p) => p.type === 'conversation.message.read')?.id).toBe(listed[0]?.id);
      // Nothing more arrives (a stored event is not fanned out a second time).
      await new Promise((done) => setTimeout(done, 1500));
      expect(r.received).toHaveLength(3);
    },
    DELIVERED_WITHIN_MS + 60_000,
  );

  it(
    'signs per Standard Webhooks: the public verifier accepts it, and X-Service-Signature equals webhook-signature',
    async () => {
      const tenant = await createTenant();
      const r = await receiver();
      const { body: endpoint } = await register(r.url(), ['*'], tenant);
      await inbound(tenant, '+491516000001');
      await eventually(
        async () => r.received.length,
        (n) => n >= 2,
        DELIVERED_WITHIN_MS,
      );
      const verifier = new Webhook(endpoint.webhook_secret);
      const types = [];
      for (const req of r.received) {
        const payload = verifier.verify(req.body, headersOf(req.headers)) as {
          id: string;
          type: string;
          api_version: string;
          tenant_id: string;
          data: unknown;
        };
        expect(req.headers['x-service-signature']).toBe(req.headers['webhook-signature']);
        expect(req.headers['webhook-id']).toBe(payload.id);
        expect(payload).toMatchObject({ api_version: 'v1', tenant_id: tenant.tenantId });
        types.push(payload.type);
      }
      expect(types.sort()).toEqual(['conversation.created', 'conversation.message.received']);
      // The receiver answers before the sender records the attempt, so the second success may land a moment later.
      const succeeded = await eventually(
        async () =>
          (await call('GET', `/webhooks/${endpoint.id}/deliveries?status=succeeded`, authOf(tenant))).body
            .data as unknown[],
        (data) => data.length >= 2,
        DELIVERED_WITHIN_MS,
      );
      expect(succeeded).toHaveLength(2);
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );

  it(
    'delivers any text the API accepts: emoji, accents, and the U+FFFF that SQS bodies may not carry',
    async () => {
      const tenant = await createTenant();
      const r = await receiver();
      await register(r.url(), ['conversation.message.received'], tenant);
      const text = 'Grüße 😡 \uffff\ufffe done';
      expect((await inbound(tenant, '+491516000031', text)).status).toBe(201);
      const [req] = await eventually(
        async () => r.received,
        (list) => list.length >= 1,
        DELIVERED_WITHIN_MS,
      );
      expect(JSON.parse(req!.body).data.message.text).toBe(text);
    },
    DELIVERED_WITHIN_MS + 60_000,
  );

  it('retries a failing receiver exactly 5 times on schedule, then shows it failed; a replay succeeds once', async () => {
    const tenant = await createTenant();
    const r = await receiver(() => ({ status: 500, body: 'boom' }));
    const { body: endpoint } = await register(r.url(), ['booking.*'], tenant);
    await call('POST', '/bookings', {
      ...authOf(tenant),
      body: {
        customer: { phone: '+491516000002' },
        service: 'x',
        start_at: '2031-03-01T09:00:00Z',
        end_at: '2031-03-01T10:00:00Z',
        timezone: 'UTC',
      },
    });
    const failed = await eventually(
      () => call('GET', '/webhook-deliveries?status=failed', authOf(tenant)),
      (res) => res.body.data.length === 1,
      DELIVERED_WITHIN_MS,
    );
    expect(r.received).toHaveLength(6);
    for (let i = 1; i < 6; i++) expect(r.received[i]!.at - r.received[i - 1]!.at).toBeGreaterThanOrEqual(950);
    const delivery = await call('GET', `/webhook-deliveries/${failed.body.data[0].id}`, authOf(tenant));
    expect(delivery.body).toMatchObject({
      status: 'failed',
      webhook_id: endpoint.id,
      event_type: 'booking.created',
      payload: { type: 'booking.created' },
    });
    expect(delivery.body.attempts).toHaveLength(6);
    expect(delivery.body.attempts[0]).toMatchObject({ status_code: 500, error: 'HTTP 500', response_body: 'boom' });
    expect(delivery.body.failure_reason).toMatch(/gave up after 6 attempts/);

    r.setBehaviour(() => ({ status: 204 }));
    const retried = await call('POST', `/webhook-deliveries/${delivery.body.id}/retry`, authOf(tenant));
    expect(retried.status).toBe(202);
    const done = await eventually(
      () => call('GET', `/webhook-deliveries/${delivery.body.id}`, authOf(tenant)),
      (res) => res.body.status === 'succeeded',
      DELIVERED_WITHIN_MS,
    );
    expect(done.body.attempts).toHaveLength(7);
    expect(r.received).toHaveLength(7);
    expect(r.received[6]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    await settlesTo(async () => (await call('GET', '/webhook-deliveries?status=failed', authOf(tenant))).body.data, []);
  }, 130_000);

  it(
    'counts a receiver slower than the timeout as a failure, and does not follow redirects',
    async () => {
      const tenant = await createTenant();
      const slow = await receiver(() => ({ status: 200, delayMs: 3000 }));
      const redirect = await receiver((req) =>
        req.path === '/moved' ? { status: 200 } : { status: 302, headers: { Location: '/moved' } },
      );
      const a = (await register(slow.url(), ['booking.*'], tenant)).body;
      const b = (await register(redirect.url(), ['booking.*'], tenant)).body;
      await call('POST', '/bookings', {
        ...authOf(tenant),
        body: {
          customer: { phone: '+491516000003' },
          service: 'x',
          start_at: '2031-03-02T09:00:00Z',
          end_at: '2031-03-02T10:00:00Z',
          timezone: 'UTC',
        },
      });
      const first = async (id: string) =>
        (await call('GET', `/webhooks/${id}/deliveries`, authOf(tenant))).body.data[0];
      const slowDelivery = await eventually(
        () => first(a.id),
        (d) => d?.attempts?.length >= 1,
        DELIVERED_WITHIN_MS,
      );
      expect(slowDelivery.attempts[0]).toMatchObject({ status_code: null, error: 'timeout after 1500 ms' });
      const redirected = await eventually(
        () => first(b.id),
        (d) => d?.attempts?.length >= 1,
        DELIVERED_WITHIN_MS,
      );
      expect(redirected.attempts[0]).toMatchObject({ status_code: 302, error: 'HTTP 302' });
      expect(redirect.received.filter((x) => x.path === '/moved')).toHaveLength(0);
      await call('PATCH', `/webhooks/${a.id}`, { ...authOf(tenant), body: { is_active: false } });
      await call('PATCH', `/webhooks/${b.id}`, { ...authOf(tenant), body: { is_active: false } });
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );

  it(
    'delivers nothing to an inactive endpoint, and stops its pending retries',
    async () => {
      const tenant = await createTenant();
      const r = await receiver(() => ({ status: 503 }));
      const { body: endpoint } = await register(r.url(), ['conversation.*'], tenant);
      await inbound(tenant, '+491516000004');
      const deliveries = () => call('GET', `/webhooks/${endpoint.id}/deliveries`, authOf(tenant));
      // Both events' deliveries (conversation.created and the message) exist and one was tried: under the
      // chaos mode the second event can be dispatched seconds after the first.
      await eventually(deliveries, (res) => res.body.data.length === 2 && r.received.length >= 1, DELIVERED_WITHIN_MS);
      await call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(tenant), body: { is_active: false } });
      const seen = r.received.length;
      const ended = await eventually(
        deliveries,
        (res) => res.body.data.every((d: { status: string }) => d.status !== 'pending'),
        DELIVERED_WITHIN_MS,
      );
      // Each pending delivery was cancelled. Under the chaos mode one may instead have used its last retry
      // (a second apart here) while the test waited to deactivate: it failed, which is final too.
      const endedAs = (d: { status: string; failure_reason: string }) =>
        d.status === 'failed' && process.env.CHAOS && /^gave up after/.test(d.failure_reason)
          ? 'out of retries'
          : `${d.status}: ${d.failure_reason}`;
      for (const d of ended.body.data) expect(['cancelled: endpoint_inactive', 'out of retries']).toContain(endedAs(d));
      await inbound(tenant, '+491516000004', 'more');
      await new Promise((res) => setTimeout(res, 2500));
      // Each of the two deliveries may have had one attempt under way, or started on the endpoint as the
      // dispatcher cached it in the second before (the attempt lease keeps a duplicated message from a second POST).
      expect(r.received.length).toBeLessThanOrEqual(seen + 2);
      // Deactivation takes effect at once: the later events make no delivery at all.
      await settlesTo(
        async () =>
          (await call('GET', `/webhooks/${endpoint.id}/deliveries`, authOf(tenant))).body.data.map(endedAs).sort(),
        ended.body.data.map(endedAs).sort(),
      );
    },
    2 * DELIVERED_WITHIN_MS + 30_000,
  );

  it(
    'matches wildcards and fans one event out to several endpoints, each signed with its own secret',
    async () => {
      const tenant = await createTenant();
      const all = await receiver();
      const bookings = await receiver();
      const convs = await receiver();
      const eAll = (await register(all.url(), ['*'], tenant)).body;
      const eBookings = (await register(bookings.url(), ['booking.*'], tenant)).body;
      const eConvs = (await register(convs.url(), ['conversation.created'], tenant)).body;
      await call('POST', '/bookings', {
        ...authOf(tenant),
        body: {
          customer: { phone: '+491516000005' },
          service: 'x',
          start_at: '2031-03-03T09:00:00Z',
          end_at: '2031-03-03T10:00:00Z',
          timezone: 'UTC',
        },
      });
      await eventually(
        async () => all.received.length + bookings.received.length,
        (n) => n >= 2,
        DELIVERED_WITHIN_MS,
      );
      await new Promise((res) => setTimeout(res, 500));
      expect(convs.received).toHaveLength(0);
      const [fromAll] = all.received;
      const [fromBookings] = bookings.received;
      expect(fromAll?.body).toBe(fromBookings?.body);
      expect(() => new Webhook(eAll.webhook_secret).verify(fromAll!.body, headersOf(fromAll!.headers))).not.toThrow();
      expect(() =>
        new Webhook(eBookings.webhook_secret).verify(fromBookings!.body, headersOf(fromBookings!.headers)),
      ).not.toThrow();
      expect(() => new Webhook(eConvs.webhook_secret).verify(fromAll!.body, headersOf(fromAll!.headers))).toThrow();
    },
    DELIVERED_WITHIN_MS + 60_000,
  );

  it(
    'signs with both secrets for 24 h after a rotation',
    async () => {
      const tenant = await createTenant();
      const r = await receiver();
      const created = (await register(r.url(), ['webhook.test'], tenant)).body;
      const rotated = await call('POST', `/webhooks/${created.id}/rotate-secret`, authOf(tenant));
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook_secret).not.toBe(created.webhook_secret);
      // Workers cache an endpoint for up to a second; the old secret still signs meanwhile.
      await new Promise((res) => setTimeout(res, 1200));
      const test = await call('POST', `/webhooks/${created.id}/test`, authOf(tenant));
      expect(test.status).toBe(202);
      const [req] = await eventually(
        async () => r.received,
        (list) => list.length >= 1,
        DELIVERED_WITHIN_MS,
      );
      const signatures = String(req!.headers['webhook-signature']).split(' ');
      expect(signatures).toHaveLength(2);
      for (const secret of [created.webhook_secret, rotated.body.webhook_secret]) {
        expect(() => new Webhook(secret).verify(req!.body, headersOf(req!.headers))).not.toThrow();
      }
      expect(JSON.parse(req!.body).type).toBe('webhook.test');
      // A second rotation retires the first secret at once: never more than two signatures.
      const again = await call('POST', `/webhooks/${created.id}/rotate-secret`, authOf(tenant));
      await new Promise((res) => setTimeout(res, 1200));
      await call('POST', `/webhooks/${created.id}/test`, authOf(tenant));
      const [, second] = await eventually(
        async () => r.received,
        (list) => list.length >= 2,
        DELIVERED_WITHIN_MS,
      );
      expect(String(second!.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(() =>
        new Webhook(again.body.webhook_secret).verify(second!.body, headersOf(second!.headers)),
      ).not.toThrow();
      expect(() =>
        new Webhook(rotated.body.webhook_secret).verify(second!.body, headersOf(second!.headers)),
      ).not.toThrow();
      expect(() => new Webhook(created.webhook_secret).verify(second!.body, headersOf(second!.headers))).toThrow();
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );

  it(
    'recovers every failed delivery since a time',
    async () => {
      const tenant = await createTenant();
      const r = await receiver(() => ({ status: 500 }));
      const { body: endpoint } = await register(r.url(), ['conversation.created'], tenant);
      // The events are timed on the server's clock, which may run behind this one.
      const since = new Date(Date.now() - 1000 - serverClockSkewMs()).toISOString();
      await inbound(tenant, '+491516000006');
      await inbound(tenant, '+491516000007');
      await eventually(
        () => call('GET', `/webhooks/${endpoint.id}/deliveries?status=failed`, authOf(tenant)),
        (res) => res.body.data.length === 2,
        DELIVERED_WITHIN_MS,
      );
      r.setBehaviour(() => ({ status: 200 }));
      const recovered = await call('POST', `/webhooks/${endpoint.id}/recover`, { ...authOf(tenant), body: { since } });
      expect(recovered.status).toBe(202);
      expect(recovered.body.replayed).toBe(2);
      expect(
        (
          await call('POST', `/webhooks/${endpoint.id}/recover`, {
            ...authOf(tenant),
            body: { since: '1969-12-31T00:00:00Z' },
          })
        ).body.code,
      ).toBe('date_out_of_range');
      await eventually(
        () => call('GET', `/webhooks/${endpoint.id}/deliveries?status=succeeded`, authOf(tenant)),
        (res) => res.body.data.length === 2,
        DELIVERED_WITHIN_MS,
      );
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );
});

describe('the failed-delivery view', () => {
  it(
    'narrows by endpoint (deleted ones too), event type and the event\u2019s time, page by page',
    async () => {
      const tenant = await createTenant();
      const failing = await receiver(() => ({ status: 500 }));
      const { body: a } = await register(
        failing.url(),
        ['conversation.created', 'conversation.message.received'],
        tenant,
      );
      const { body: b } = await register(failing.url(), ['conversation.created'], tenant);
      const failedCount = async (n: number) =>
        eventually(
          () => call('GET', '/webhook-deliveries?limit=100', authOf(tenant)),
          (res) => res.body.data.length === n,
          DELIVERED_WITHIN_MS + 10_000,
        );
      // Each new customer's message is two events: conversation.created and .message.received.
      await inbound(tenant, '+491516000011');
      await failedCount(3);
      // The view splits by the events' times, taken on the server's clocks, which under the chaos mode may be
      // off the real time (this process's) by up to serverClockSkewMs: the split point is taken that long
      // after the first message's events were committed, and the second message is sent that long after it.
      const skew = serverClockSkewMs();
      await new Promise((r) => setTimeout(r, skew));
      const between = new Date().toISOString();
      await new Promise((r) => setTimeout(r, skew + 1));
      await inbound(tenant, '+491516000012');
      const all = await failedCount(6);
      const list = async (query: string) => {
        const res = await call('GET', `/webhook-deliveries?${query}`, authOf(tenant));
        expect(res.status).toBe(200);
        return res.body.data as { id: string; webhook_id: string; event_type: string }[];
      };

      expect((await list(`webhook_id=${a.id}`)).map((d) => d.webhook_id)).toEqual(Array(4).fill(a.id));
      const created = await list('event_type=conversation.created');
      expect(created.map((d) => d.event_type)).toEqual(Array(4).fill('conversation.created'));
      expect(await list(`webhook_id=${b.id}&event_type=conversation.message.received`)).toEqual([]);
      const later = await list(`since=${between}`);
      const earlier = await list(`until=${between}`);
      expect(later).toHaveLength(3);
      expect(earlier).toHaveLength(3);
      expect([...later, ...earlier].map((d) => d.id).sort()).toEqual(
        all.body.data.map((d: { id: string }) => d.id).sort(),
      );
      expect(await list(`webhook_id=${a.id}&event_type=conversation.created&since=${between}`)).toHaveLength(1);
      expect(
        await call(
          'GET',
          `/webhooks/${a.id}/deliveries?status=failed&event_type=conversation.message.received`,
          authOf(tenant),
        ),
      ).toMatchObject({ status: 200, body: { data: [{ webhook_id: a.id }, { webhook_id: a.id }] } });
      const endpointSince = await call('GET', `/webhooks/${a.id}/deliveries?since=${between}`, authOf(tenant));
      expect(endpointSince.body.data).toHaveLength(2);
      const endpointUntil = await call('GET', `/webhooks/${a.id}/deliveries?until=${between}`, authOf(tenant));
      expect(endpointUntil.body.data).toHaveLength(2);
      expect(endpointSince.body.data.map((d: { id: string }) => d.id)).not.toContain(endpointUntil.body.data[0].id);

      // A filtered list pages like any other, and its cursor belongs to that filter.
      const seen: string[] = [];
      const cursors: string[] = [];
      for (let cursor = ''; ;) {
        const page = await call(
          'GET',
          `/webhook-deliveries?event_type=conversation.created&limit=1${cursor && `&cursor=${cursor}`}`,
          authOf(tenant),
        );
        seen.push(...page.body.data.map((d: { id: string }) => d.id));
        if (!page.body.pagination.has_more) break;
        cursor = page.body.pagination.next_cursor;
        cursors.push(cursor);
      }
      expect(seen).toEqual(created.map((d) => d.id));
      expect(cursors).toHaveLength(3);
      const foreign = await call('GET', `/webhook-deliveries?limit=1&cursor=${cursors[0]}`, authOf(tenant));
      expect(foreign).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });

      // A deleted endpoint's failures stay in the view; another tenant's endpoint id finds nothing.
      expect((await call('DELETE', `/webhooks/${b.id}`, authOf(tenant))).status).toBe(204);
      expect(await list(`webhook_id=${b.id}`)).toHaveLength(2);
      const other = await createTenant();
      expect((await call('GET', `/webhook-deliveries?webhook_id=${a.id}`, authOf(other))).body.data).toEqual([]);

      for (const query of [
        'event_type=conversation.*',
        'event_type=nope',
        'webhook_id=whk_nope',
        'since=yesterday',
        `since=${between}&until=2020-01-01T00:00:00Z`,
      ]) {
        for (const path of ['/webhook-deliveries', `/webhooks/${a.id}/deliveries`]) {
          const res = await call('GET', `${path}?${query}`, authOf(tenant));
          expect(res).toMatchObject({ status: 400, body: { code: 'invalid_query' } });
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        }
      }
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );
});

describe('subscription changes take effect at once', () => {
  // Each case first makes the dispatcher read the tenant's subscriptions (an event), then changes them
  // and at once commits another event: the change must apply to it, with no cache in the way.
  const types = (r: { received: { body: string }[] }) => r.received.map((x) => JSON.parse(x.body).type as string);
  const bookingBody = (n: number) => ({
    customer: { phone: `+4915170000${String(n).padStart(2, '0')}` },
    service: 'x',
    start_at: `2031-04-${String(n).padStart(2, '0')}T09:00:00Z`,
    end_at: `2031-04-${String(n).padStart(2, '0')}T10:00:00Z`,
    timezone: 'UTC',
  });

  it('a new endpoint gets the very next event, every time', async () => {
    const tenant = await createTenant();
    for (let round = 1; round <= 3; round++) {
      await inbound(tenant, `+4915170001${round}0`);
      const r = await receiver();
      expect((await register(r.url(), ['booking.created'], tenant)).status).toBe(201);
      expect((await call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(round) })).status).toBe(201);
      await eventually(
        async () => types(r),
        (list) => list.includes('booking.created'),
        DELIVERED_WITHIN_MS,
      );
    }
  }, 155_000);

  it('a re-subscribed, re-activated or re-pointed endpoint gets the very next event', async () => {
    const tenant = await createTenant();
    const first = await receiver();
    const second = await receiver();
    const { body: endpoint } = await register(first.url(), ['conversation.created'], tenant);
    await inbound(tenant, '+491517000201');
    await eventually(
      async () => types(first),
      (list) => list.includes('conversation.created'),
      DELIVERED_WITHIN_MS,
    );

    expect(
      (await call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(tenant), body: { events: ['booking.*'] } })).status,
    ).toBe(200);
    await call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(10) });
    await eventually(
      async () => types(first),
      (list) => list.includes('booking.created'),
      DELIVERED_WITHIN_MS,
    );

    expect(
      (await call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(tenant), body: { is_active: false } })).status,
    ).toBe(200);
    await call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(11) });
    // An event committed within ACTIVE_FROM_MARGIN_MS before a re-activation may still go out (the margin
    // allows for clocks that differ between Lambdas): this one is older than that when the endpoint resumes,
    // by the clocks of the booking's request and of the PATCH, which the chaos mode skews each its own way.
    await new Promise((res) => setTimeout(res, ACTIVE_FROM_MARGIN_MS + 2 * serverClockSkewMs() + 1000));
    expect(
      (await call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(tenant), body: { is_active: true } })).status,
    ).toBe(200);
    await call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(12) });
    await eventually(
      async () => first.received.length,
      (n) => n === 3,
      DELIVERED_WITHIN_MS,
    );

    expect(
      (await call('PATCH', `/webhooks/${endpoint.id}`, { ...authOf(tenant), body: { url: second.url() } })).status,
    ).toBe(200);
    await call('POST', '/bookings', { ...authOf(tenant), body: bookingBody(13) });
    await eventually(
      async () => second.received.length,
      (n) => n === 1,
      DELIVERED_WITHIN_MS,
    );
    await new Promise((res) => setTimeout(res, 500));
    expect(first.received).toHaveLength(3);
    const start = (x: { body: string }) => JSON.parse(x.body).data.booking.start_at as string;
    expect(first.received.slice(1).map(start)).toEqual(['2031-04-10T09:00:00.000Z', '2031-04-12T09:00:00.000Z']);
    expect(start(second.received[0]!)).toBe('2031-04-13T09:00:00.000Z');
  }, 185_000);
});

describe('tenant isolation', () => {
  it("hides other tenants' webhooks and deliveries behind 404", async () => {
    const other = await createTenant();
    const r = await receiver();
    const { body: endpoint } = await register(r.url(), ['*']);
    const test = await call('POST', `/webhooks/${endpoint.id}/test`, authOf(t));
    for (const [method, path] of [
      ['GET', `/webhooks/${endpoint.id}`],
      ['PATCH', `/webhooks/${endpoint.id}`],
      ['DELETE', `/webhooks/${endpoint.id}`],
      ['POST', `/webhooks/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/${endpoint.id}/test`],
      ['GET', `/webhooks/${endpoint.id}/deliveries`],
      ['GET', `/webhook-deliveries/${test.body.delivery_id}`],
      ['POST', `/webhook-deliveries/${test.body.delivery_id}/retry`],
      ['POST', `/webhooks/${endpoint.id}/recover`],
    ] as const) {
      const body =
        method === 'PATCH'
          ? { is_active: false }
          : path.endsWith('/recover')
            ? { since: '2020-01-01T00:00:00Z' }
            : undefined;
      const res = await call(method, path, { ...authOf(other), ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
    }
    expect((await call('GET', '/webhooks', authOf(other))).body.data).toEqual([]);
    expect((await call('GET', `/webhooks/${endpoint.id}`, authOf(t))).body.is_active).toBe(true);
  });
});

describe('ops tooling (npm run ops)', () => {
  const ops = async (...args: string[]) => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/ops.ts', ...args],
      {
        env: { ...process.env, LOCAL_RUNTIME_FILE: testRuntime().opsFile },
      },
    );
    return { stdout, stderr };
  };

  it(
    'lists failed deliveries, peeks at the DLQ, and replays failures',
    async () => {
      const tenant = await createTenant();
      const r = await receiver(() => ({ status: 500 }));
      const { body: endpoint } = await register(r.url(), ['conversation.created'], tenant);
      await inbound(tenant, '+491516000009');
      const failed = await eventually(
        () => call('GET', `/webhooks/${endpoint.id}/deliveries?status=failed`, authOf(tenant)),
        (res) => res.body.data.length === 1,
        DELIVERED_WITHIN_MS,
      );
      const id = failed.body.data[0].id;
      const listed = await ops('failed', '--tenant', tenant.tenantId);
      expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id, tenant_id: tenant.tenantId, attempts: 6 });
      expect((await ops('failed')).stdout).toContain(id);
      const peek = await ops('peek-dlq');
      expect(peek.stderr).toMatch(/dead letter\(s\) shown/);
      r.setBehaviour(() => ({ status: 200 }));
      const replayed = await ops('replay-failed', '--tenant', tenant.tenantId);
      expect(replayed.stderr).toContain('1 deliveries replayed');
      await eventually(
        () => call('GET', `/webhook-deliveries/${id}`, authOf(tenant)),
        (res) => res.body.status === 'succeeded',
        DELIVERED_WITHIN_MS,
      );
    },
    2 * DELIVERED_WITHIN_MS + 60_000,
  );
});
