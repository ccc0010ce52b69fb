import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, eventually, settlesTo } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { beforeCalls, failCalls, laggingReplica, throttled, writesTo } from '../support/dynamo-faults';
import { updateCustomer } from '../../functions/customers/service';
import { getConversation } from '../../functions/conversations/store';
import { getBooking } from '../../functions/bookings/store';

/**
 * Names converge: copies are versioned and written only over older ones. A rename and a second one that
 * lands while the first is still writing its copies (each copy write of the first waits until the second is
 * done) end with the second's name everywhere, even though the first's later pass reads a lagging index
 * that does not show the conversation and booking it just wrote.
 */
it('two renames at once end with the newer name on every copy', async () => {
  const t = await createTenant();
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491518000002', name: 'Ann' }, tags: ['vip'] },
  });
  const conversationId = opened.body.id as string;
  const customerId = opened.body.customer.id as string;
  const booking = await call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { id: customerId },
      service: 'Check-up',
      start_at: '2031-04-02T09:00:00Z',
      end_at: '2031-04-02T09:30:00Z',
      timezone: 'UTC',
    },
  });
  expect(booking.status).toBe(201);

  let second: Promise<unknown> | undefined;
  const renameToCat = () => (second ??= updateCustomer(t.tenantId, customerId, { name: 'Cat' }, undefined, new Date()));
  // Bea's copy writes (to the conversation and to the booking) wait until the rename to Cat is done.
  const writesBea = (command: string, input: Record<string, any>) =>
    (writesTo('CONV#')(command, input) || writesTo('BKG#')(command, input)) &&
    input.ExpressionAttributeValues?.[':cus']?.name === 'Bea';
  const stopHolding = beforeCalls(writesBea, renameToCat, 2);
  const stopLag = laggingReplica(5000);
  try {
    await updateCustomer(t.tenantId, customerId, { name: 'Bea' }, undefined, new Date());
    await second;
  } finally {
    stopLag();
    stopHolding();
  }
  expect(second).toBeDefined();
  const conversation = await getConversation(t.tenantId, conversationId);
  expect(conversation?.customer.name).toBe('Cat');
  expect((await getBooking(t.tenantId, booking.body.id))?.customer.name).toBe('Cat');
  const snapshot = await db().send(
    new GetCommand({
      TableName: table,
      Key: { pk: `TENANT#${t.tenantId}`, sk: `CONVTAG#${conversationId}#vip` },
      ConsistentRead: true,
    }),
  );
  expect(snapshot.Item?.conversation.customer.name).toBe('Cat');
});

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
      UpdateExpression: 'SET customer = :ann, customer_version = :one',
      ExpressionAttributeValues: { ':ann': ann, ':one': 1 },
    }),
  );
  const tagged = async () =>
    (await call('GET', '/conversations?tag=vip', authOf(t))).body.data.find(
      (c: { id: string }) => c.id === conversationId,
    )?.customer.name;
  await settlesTo(tagged, 'Ann');

  // The client sends its request again, with the If-Match it had: the rename is already done.
  const again = await call('PATCH', `/customers/${customer.id}`, {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { name: 'Bea' },
  });
  expect(again.status).toBe(200);
  expect(again.body).toEqual(renamed.body);
  await settlesTo(tagged, 'Bea');
  expect((await call('GET', `/bookings/${booking.body.id}`, authOf(t))).body.customer.name).toBe('Bea');
  // A different name with that stale version is still refused.
  const stale = await call('PATCH', `/customers/${customer.id}`, {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { name: 'Cat' },
  });
  expect(stale.status).toBe(412);
});

/**
 * The copies' settled pass waits for the indexes on a delayed queue (SettledPasses), not in the stream
 * reaction: ten renames that each slept 4 s there held up every record behind them on the shard for 40 s.
 */
it('a burst of renames holds up nothing behind it on the stream, and every copy still converges', async () => {
  const t = await createTenant();
  const opened = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call('POST', '/conversations', {
        ...authOf(t),
        body: { channel: 'sandbox', customer: { phone: `+4915180003${String(i).padStart(2, '0')}`, name: `Old ${i}` } },
      }),
    ),
  );
  const renamed = await Promise.all(
    opened.map((c, i) =>
      call('PATCH', `/customers/${c.body.customer.id}`, { ...authOf(t), body: { name: `New ${i}` } }),
    ),
  );
  expect(renamed.map((r) => r.status)).toEqual(opened.map(() => 200));
  // A message written right behind the renames is analysed by the same stream reader.
  const sent = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(t),
    body: { from: '+491518000399', text: 'What time do you open on Saturday?' },
  });
  expect(sent.status).toBe(201);
  const conversation = (id: string) => call('GET', `/conversations/${id}`, authOf(t));
  await eventually(
    () => conversation(sent.body.conversation.id),
    (r) => r.body.messages.some((m: { analysis: unknown }) => m.analysis),
    12_000,
  );
  for (const [i, c] of opened.entries())
    await eventually(
      () => conversation(c.body.id),
      (r) => r.body.customer.name === `New ${i}`,
    );
});

/**
 * A rename that committed is answered as made even when its copies cannot be written at once (a throttled
 * write): a 503 would have a client retry with its If-Match and meet 412. The settled pass brings them up.
 */
it('a rename whose copy writes fail answers with the renamed customer, and the settled pass brings the copies up', async () => {
  const t = await createTenant();
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491518000401', name: 'Old' } },
  });
  const stop = failCalls(writesTo('CONV#'), throttled, 20);
  let renamed;
  try {
    renamed = await updateCustomer(t.tenantId, opened.body.customer.id, { name: 'New' }, 1, new Date());
  } finally {
    stop();
  }
  expect(renamed).toMatchObject({ name: 'New', version: 2 });
  await eventually(
    () => call('GET', `/conversations/${opened.body.id}`, authOf(t)),
    (r) => r.body.customer.name === 'New',
  );
});
