import { authOf, call, createTenant, type TestTenant } from '../support/api';

let t: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant('starter'), createTenant()]);
});

describe('the tenant\u2019s own settings', () => {
  it('are read by any member and changed by admins: name, time zone and default language', async () => {
    const agentKey = await call('POST', '/api-keys', { ...authOf(t), body: { name: 'agent', role: 'agent' } });
    const agent = { tenant: t.tenantId, token: agentKey.body.key as string };
    const read = await call('GET', '/settings', agent);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: t.tenantId, plan: 'starter', timezone: 'UTC', default_language: 'en' });
    expect(read.headers.get('etag')).toBe(`"${read.body.version}"`);

    const refused = await call('PATCH', '/settings', { ...agent, body: { timezone: 'Europe/Berlin' } });
    expect(refused.status).toBe(403);

    const changed = await call('PATCH', '/settings', {
      ...authOf(t),
      body: { timezone: 'Europe/Berlin', default_language: 'de' },
      headers: { 'If-Match': `"${read.body.version}"` },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ timezone: 'Europe/Berlin', default_language: 'de', plan: 'starter' });
    // Another tenant is untouched, and /auth/me tells the new zone.
    expect((await call('GET', '/settings', authOf(other))).body.timezone).toBe('UTC');
    expect((await call('GET', '/auth/me', authOf(t))).body.tenant.timezone).toBe('Europe/Berlin');

    const stale = await call('PATCH', '/settings', {
      ...authOf(t),
      body: { name: 'Renamed' },
      headers: { 'If-Match': `"${read.body.version}"` },
    });
    expect(stale.status).toBe(412);
  });

  it('refuse an unknown zone, an unknown language, an empty change and what only the operator changes', async () => {
    for (const body of [
      { timezone: 'Mars/Olympus' },
      { default_language: 'xx' },
      {},
      { plan: 'enterprise' },
      { status: 'suspended' },
    ]) {
      const res = await call('PATCH', '/settings', { ...authOf(t), body });
      expect([res.status, res.body.code]).toEqual([422, expect.any(String)]);
    }
    expect((await call('GET', '/settings', authOf(t))).body.plan).toBe('starter');
  });
});
