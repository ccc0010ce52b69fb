import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

/**
 * A rename that failed part-way leaves copies with the old name: sending the same name again, even with
 * the If-Match the first request carried, rewrites them (tag snapshots included) and changes nothing else.
 */
useRuntimeAws();
const table = `local-${TABLES.main.id}`;

it('the same name again repairs the copies a failed rename left behind', async () => {
  const t = await createTenant();
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491518000001', name: 'Ann' }, tags: ['vip'] },
  });
  const conversationId = opened.body.id as string;
  const customer = opened.body.customer as { id: string; name: string; phone: string };
  const booking = await call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { id: customer.id },
      service: 'Check-up',
      start_at: '2031-04-01T09:00:00Z',
      end_at: '2031-04-01T09:30:00Z',
      timezone: 'UTC',
    },
  });
  const renamed = await call('PATCH', `/customers/${customer.id}`, {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { name: 'Bea' },
  });
  expect(renamed.body).toMatchObject({ name: 'Bea', version: 2 });

  // As if the refresh had failed: the tag snapshot and the booking still name Ann.
  const pk = `TENANT#${t.tenantId}`;
  const ann = { ...customer, name: 'Ann' };
  await db().send(
    new UpdateCommand({
      TableName: table,
      Key: { pk, sk: `CONVTAG#${conversationId}#vip` },
      UpdateExpression: 'SET #c.#cus = :ann, #c.#v = :one',
      ExpressionAttributeNames: { '#c': 'conversation', '#cus': 'customer', '#v': 'version' },
      ExpressionAttributeValues: { ':ann': ann, ':one': 1 },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: table,
      Key: { pk, sk: `BKG#${booking.body.id}` },
      UpdateExpression: 'SET customer = :ann',
      ExpressionAttributeValues: { ':ann': ann },
    }),
  );
  const tagged = async () =>
    (await call('GET', '/conversations?tag=vip', authOf(t))).body.data.find(
      (c: { id: string }) => c.id === conversationId,
    )?.customer.name;
  expect(await tagged()).toBe('Ann');

  // The client sends its request again, with the If-Match it had: the rename is already done.
  const again = await call('PATCH', `/customers/${customer.id}`, {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { name: 'Bea' },
  });
  expect(again.status).toBe(200);
  expect(again.body).toEqual(renamed.body);
  expect(await tagged()).toBe('Bea');
  expect((await call('GET', `/bookings/${booking.body.id}`, authOf(t))).body.customer.name).toBe('Bea');
  // A different name with that stale version is still refused.
  const stale = await call('PATCH', `/customers/${customer.id}`, {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { name: 'Cat' },
  });
  expect(stale.status).toBe(412);
});
