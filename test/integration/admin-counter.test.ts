import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { tableName } from '../../functions/platform/config';
import { tenantKey } from '../../functions/tenants/store';
import { authOf, call, createTenant, platform } from '../support/api';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();

const counterOf = async (tenantId: string) =>
  (await db().send(new GetCommand({ TableName: tableName('main'), Key: tenantKey(tenantId), ConsistentRead: true })))
    .Item?.active_admins as number | undefined;

it('starts the active-admin counter of a tenant created before it, from the admins it really has', async () => {
  const t = await createTenant();
  expect(await counterOf(t.tenantId)).toBe(1);
  // A tenant from before the counter existed: two admins, no counter.
  const second = await call('POST', '/users', {
    ...authOf(t),
    body: { email: `second-${randomUUID().slice(0, 8)}@example.com`, password: 'second admin password', role: 'admin' },
  });
  expect(second.status).toBe(201);
  await db().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: tenantKey(t.tenantId),
      UpdateExpression: 'REMOVE active_admins',
    }),
  );
  expect(await counterOf(t.tenantId)).toBeUndefined();

  // The first change that moves the count counts the admins first (2), then applies itself.
  expect((await call('PATCH', `/users/${t.adminUserId}`, { ...authOf(t), body: { role: 'agent' } })).status).toBe(200);
  expect(await counterOf(t.tenantId)).toBe(1);
  const refused = await call('PATCH', `/users/${second.body.id}`, { ...authOf(t), body: { status: 'disabled' } });
  expect([refused.status, refused.body.code]).toEqual([409, 'last_admin']);
  // The tenant as the API shows it carries no trace of the counter.
  const shown = await platform('GET', `/tenants/${t.tenantId}`);
  expect(shown.status).toBe(200);
  expect(shown.text).not.toContain('active_admins');
});
