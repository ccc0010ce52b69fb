import { authOf, call, createTenant, type TestTenant } from '../support/api';

/**
 * Free-form maps hold client data. Names every JavaScript object inherits (`__proto__`, `constructor` …)
 * cannot be stored as given, so they are refused with 422 instead of crashing the write (`constructor`
 * used to give 500) or vanishing (`__proto__` used to be dropped without a word).
 */
let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const day = (d: number, h: number) => new Date(Date.UTC(2030, 2, d, h)).toISOString();
const bookingBody = (d: number, metadataJson: string) =>
  `{"customer":{"phone":"+491513000001"},"service":"Cut","timezone":"UTC","start_at":"${day(d, 9)}","end_at":"${day(d, 10)}","metadata":${metadataJson}}`;
const createRaw = (raw: string) =>
  call('POST', '/bookings', { ...authOf(t), headers: { 'Content-Type': 'application/json' }, rawBody: raw });

describe('booking metadata keys', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'refuses %j with 422 naming the key',
    async (key) => {
      const res = await createRaw(bookingBody(1, `{${JSON.stringify(key)}:"x","source":"web"}`));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ path: `metadata.${key}` })]);
    },
  );

  it('refuses them on PATCH too, and stores ordinary keys exactly as sent', async () => {
    const created = await createRaw(
      bookingBody(2, '{"source":"web","prototype_ok":true,"Constructor":"capitalised is fine"}'),
    );
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ source: 'web', prototype_ok: true, Constructor: 'capitalised is fine' });
    const patched = await call('PATCH', `/bookings/${created.body.id}`, {
      ...authOf(t),
      headers: { 'Content-Type': 'application/json' },
      rawBody: '{"metadata":{"constructor":"x"}}',
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors[0].path).toBe('metadata.constructor');
    const got = await call('GET', `/bookings/${created.body.id}`, authOf(t));
    expect(got.body.metadata).toEqual(created.body.metadata);
  });
});

describe('message words that are object property names', () => {
  it('analyses "constructor" like any other word (it used to give 500)', async () => {
    for (const text of ['constructor', 'my constructor appointment tomorrow please']) {
      const res = await call('POST', '/ai/analyze', { ...authOf(t), body: { text } });
      expect(res.status).toBe(200);
      expect(typeof res.body.sentiment.score).toBe('number');
    }
  });
});
