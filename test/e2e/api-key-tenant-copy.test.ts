/**
 * An API key item carries a copy of its tenant, so authenticating a key is one read. These tests hold the
 * copy to what the tenant item says: after changes, under concurrent key creations and tenant changes,
 * and for keys stored before the copy existed.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { call, createTenant, listEventually, platform, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { db } from '../../functions/platform/db';
import { tableName } from '../../functions/platform/config';
import { apiKeyHashKey, createApiKey, tenantCopyUpdates, tenantWithKeys } from '../../functions/api-keys/store';
import { generateApiKey, hashApiKey, MAX_API_KEYS } from '../../functions/api-keys/key';
import { TenantChanged, tenantFromItem, tenantKey, updateTenant } from '../../functions/tenants/store';

useRuntimeAws();

const keyItem = async (key: string) =>
  (await db().send(new GetCommand({ TableName: tableName('main'), Key: apiKeyHashKey(hashApiKey(key)) }))).Item;
const tenantItem = async (tenantId: string) =>
  (await db().send(new GetCommand({ TableName: tableName('main'), Key: tenantKey(tenantId), ConsistentRead: true })))
    .Item;

const newKey = (t: TestTenant, name = 'extra') =>
  call('POST', '/api-keys', { tenant: t.tenantId, token: t.apiKey, body: { name, role: 'agent' } });

/** Every key's copy equals the tenant item, field for field. */
async function expectCopiesCurrent(t: TestTenant, keys: string[]) {
  const tenant = tenantFromItem((await tenantItem(t.tenantId)) ?? {});
  for (const key of keys) expect(tenantFromItem((await keyItem(key))?.tenant ?? {})).toEqual(tenant);
}

describe('the tenant copy on API keys', () => {
  it('is written with each key and rewritten by every tenant change, so limits and suspension reach all keys at once', async () => {
    const t = await createTenant();
    const second = (await newKey(t)).body.key as string;
    await expectCopiesCurrent(t, [t.apiKey, second]);

    const changed = await platform('PATCH', `/tenants/${t.tenantId}`, {
      plan: 'enterprise',
      rate_limit_per_hour: 12_345,
      timezone: 'Europe/Berlin',
    });
    expect(changed.status).toBe(200);
    await expectCopiesCurrent(t, [t.apiKey, second]);
    const me = await call('GET', '/auth/me', { tenant: t.tenantId, token: second });
    expect(me.headers.get('ratelimit-policy')).toBe('"hourly";q=12345;w=3600');

    // Back to a plan limit: the custom limit is removed from the tenant and from every copy alike.
    expect((await platform('PATCH', `/tenants/${t.tenantId}`, { plan: 'starter' })).status).toBe(200);
    await expectCopiesCurrent(t, [t.apiKey, second]);
    expect((await keyItem(second))?.tenant.rate_limit_per_hour).toBeUndefined();

    expect((await platform('PATCH', `/tenants/${t.tenantId}`, { status: 'suspended' })).status).toBe(200);
    for (const key of [t.apiKey, second])
      expect((await call('GET', '/auth/me', { tenant: t.tenantId, token: key })).body.code).toBe('tenant_suspended');
    expect((await platform('PATCH', `/tenants/${t.tenantId}`, { status: 'active' })).status).toBe(200);
    for (const key of [t.apiKey, second])
      expect((await call('GET', '/auth/me', { tenant: t.tenantId, token: key })).status).toBe(200);
  });

  it('stays current when keys are created and revoked while the tenant changes', async () => {
    const t = await createTenant();
    const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
    const doomed = (await newKey(t, 'doomed')).body.id as string;
    const [created, changes, revoked] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, (_, i) => newKey(t, `racer ${i}`))),
      Promise.all(zones.map((timezone) => platform('PATCH', `/tenants/${t.tenantId}`, { timezone }))),
      call('DELETE', `/api-keys/${doomed}`, { tenant: t.tenantId, token: t.apiKey }),
    ]);
    // A revocation colliding with a change's transaction is retried, never a 500.
    expect(revoked.status).toBe(204);
    expect(created.map((r) => r.status)).toEqual(Array(4).fill(201));
    expect(changes.map((r) => r.status)).toEqual(Array(3).fill(200));
    await expectCopiesCurrent(t, [t.apiKey, ...created.map((r) => r.body.key as string)]);
    expect(zones).toContain(tenantFromItem((await tenantItem(t.tenantId)) ?? {}).timezone);
  });

  it('refuses a tenant change that missed a key created after its read, and a key copying a tenant changed since', async () => {
    const t = await createTenant();
    const read = async () => {
      const found = await tenantWithKeys(t.tenantId);
      if (!found) throw new Error('tenant not found');
      return found;
    };
    const before = await read();
    const late = (await newKey(t)).body.key as string;
    const now = new Date().toISOString();
    await expect(
      updateTenant(before.state, { timezone: 'Asia/Tokyo' }, now, (changed) =>
        tenantCopyUpdates(before.hashes, changed),
      ),
    ).rejects.toBeInstanceOf(TenantChanged);

    const stale = await read();
    expect((await platform('PATCH', `/tenants/${t.tenantId}`, { timezone: 'Asia/Tokyo' })).status).toBe(200);
    const generated = generateApiKey();
    const record = {
      id: 'key_stale',
      tenant_id: t.tenantId,
      name: 'stale',
      prefix: generated.prefix,
      role: 'agent' as const,
      created_at: now,
      created_by: 'test',
      last_used_at: null,
    };
    await expect(createApiKey(record, generated.hash, stale.state)).rejects.toBeInstanceOf(TenantChanged);
    expect(await keyItem(generated.key)).toBeUndefined();
    await expectCopiesCurrent(t, [t.apiKey, late]);
  });

  it('is not needed by keys stored before it: they read the tenant, and the next tenant change gives them one', async () => {
    const t = await createTenant();
    await db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: apiKeyHashKey(hashApiKey(t.apiKey)),
        UpdateExpression: 'REMOVE #tenant',
        ExpressionAttributeNames: { '#tenant': 'tenant' },
      }),
    );
    expect((await keyItem(t.apiKey))?.tenant).toBeUndefined();
    expect((await call('GET', '/auth/me', { tenant: t.tenantId, token: t.apiKey })).status).toBe(200);

    expect((await platform('PATCH', `/tenants/${t.tenantId}`, { status: 'suspended' })).status).toBe(200);
    expect((await call('GET', '/auth/me', { tenant: t.tenantId, token: t.apiKey })).body.code).toBe('tenant_suspended');
    await expectCopiesCurrent(t, [t.apiKey]);
  });

  it(`limits a tenant to ${MAX_API_KEYS} keys, even when many are created at once`, async () => {
    const t = await createTenant('enterprise', { rate_limit_per_hour: 100_000 });
    for (let i = 1; i < MAX_API_KEYS - 4; i++) expect((await newKey(t)).status).toBe(201);
    // Four places left, eight asking at once.
    const burst = await Promise.all(Array.from({ length: 8 }, () => newKey(t)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(4);
    for (const refused of burst.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(422);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(refused.body.code).toBe('too_many_api_keys');
    }
    const list = await listEventually(
      '/api-keys?limit=100',
      { tenant: t.tenantId, token: t.apiKey },
      (body) => body.data.length >= MAX_API_KEYS,
    );
    expect(list.body.data).toHaveLength(MAX_API_KEYS);

    const revoked = list.body.data.find((k: { name: string }) => k.name === 'extra');
    expect((await call('DELETE', `/api-keys/${revoked.id}`, { tenant: t.tenantId, token: t.apiKey })).status).toBe(204);
    expect((await newKey(t)).status).toBe(201);
  });
});
