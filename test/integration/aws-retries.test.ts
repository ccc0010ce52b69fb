import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { sendMessage } from '../../functions/conversations/service';
import { newEvent } from '../../functions/events/store';
import { db, getMany } from '../../functions/platform/db';
import {
  createDelivery,
  getDelivery,
  KEPT_ATTEMPTS,
  restartDelivery,
  settleDelivery,
} from '../../functions/webhooks/store';
import { newDelivery } from '../../functions/webhooks/webhook';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { failCalls, leaveUnprocessed, retryAfterCommit, writesTo } from '../support/dynamo-faults';
import { updateSchedule } from '../../functions/bookings/schedule-store';
import { claimForSending } from '../../functions/conversations/send-store';
import { editNote } from '../../functions/conversations/note-store';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/** Smaller defences: conflicts retried, throttled batch reads retried with backoff, replays bounded. */
useRuntimeAws();
const table = `local-${TABLES.main.id}`;
const conflict = () =>
  Object.assign(new Error('Transaction is ongoing for the item'), {
    name: 'TransactionConflictException',
    $metadata: {},
  });

/** A new tenant with one sandbox conversation, opened through the API. */
async function sandboxConversation(phone: string) {
  const t = await createTenant();
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone } },
  });
  return { t, conversationId: opened.body.id as string };
}

it('an outbound send that meets an inbound transaction on its conversation retries instead of failing', async () => {
  const { t, conversationId } = await sandboxConversation('+491518000931');
  // The activity update meets two transactions of inbound messages on the conversation item.
  const stop = failCalls(
    (command, input) =>
      command === 'UpdateItemCommand' &&
      String(input.Key?.sk ?? '').startsWith(`CONV#${conversationId}`) &&
      String(input.UpdateExpression).includes('#lm'),
    conflict,
    2,
  );
  try {
    const message = await sendMessage(
      t.tenantId,
      conversationId,
      { kind: { type: 'text', text: 'Hello' } },
      { type: 'api_key', id: 'key_x' },
      new Date(),
    );
    expect(message.status).toBe('queued');
  } finally {
    stop();
  }
});

it('asks again for keys a batch read left unprocessed, after growing pauses', async () => {
  const t = await createTenant();
  const key = { pk: `TENANT#${t.tenantId}`, sk: 'TENANT' };
  const pauses: number[] = [];
  const stop = leaveUnprocessed(3);
  try {
    const [tenant] = await getMany(table, [key], ['pk', 'sk'], async (ms) => {
      pauses.push(ms);
    });
    expect(tenant).toMatchObject(key);
  } finally {
    stop();
  }
  expect(pauses).toHaveLength(3);
  for (const ms of pauses) expect(ms).toBeLessThanOrEqual(320);
});

it('replays a delivery once per cycle read, and keeps its attempt log bounded', async () => {
  const t = await createTenant();
  const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_x' } }, new Date());
  const attempts = Array.from({ length: KEPT_ATTEMPTS + 5 }, (_, i) => ({
    at: new Date(Date.now() - (30 - i) * 1000).toISOString(),
    status_code: 500,
    duration_ms: 10,
    error: null,
    response_body: `attempt ${i}`,
  }));
  const failed = {
    ...newDelivery(event, 'whk_01M8065Z6SFENAQDBT80AP6GEJ', new Date()),
    status: 'failed' as const,
    attempts,
    next_attempt_at: null,
    failed_at: new Date().toISOString(),
  };
  await createDelivery(failed, event);
  const read = await getDelivery(t.tenantId, failed.id);
  if (!read) throw new Error('no delivery');

  expect(await restartDelivery(read, new Date())).toBe(2);
  const restarted = await getDelivery(t.tenantId, failed.id);
  expect(restarted?.attempts).toHaveLength(KEPT_ATTEMPTS);
  expect(restarted?.attempts[0]?.response_body).toBe('attempt 5');
  const item = await db().send(
    new GetCommand({ TableName: table, Key: { pk: `TENANT#${t.tenantId}`, sk: `DLV#${failed.id}` } }),
  );
  expect(item.Item?.earlier_attempts).toBe(5);

  // The new cycle fails again; a second replay made from the first read (cycle 1) is refused.
  await settleDelivery(read, { status: 'failed', cycle: 2, expect: ['pending'] }, new Date());
  expect(await restartDelivery(read, new Date())).toBeUndefined();
  expect((await getDelivery(t.tenantId, failed.id))?.cycle).toBe(2);
});

it('a delivery settle whose response was lost and which the SDK sent again is its own change, not a conflict', async () => {
  const t = await createTenant();
  const event = newEvent(t.tenantId, 'booking.created', { booking: { id: 'bkg_lost' } }, new Date());
  const failed = {
    ...newDelivery(event, 'whk_01M8065Z6SFENAQDBT80AP6GEK', new Date()),
    status: 'failed' as const,
    next_attempt_at: null,
    failed_at: new Date().toISOString(),
  };
  await createDelivery(failed, event);
  const read = await getDelivery(t.tenantId, failed.id);
  if (!read) throw new Error('no delivery');
  // A replay (POST /webhook-deliveries/{id}/retry) whose restart committed before its response was lost.
  let stop = retryAfterCommit(writesTo(`DLV#${failed.id}`));
  try {
    expect(await restartDelivery(read, new Date())).toBe(2);
  } finally {
    stop();
  }
  // The worker's record of the new cycle's first attempt, likewise.
  const attempt = {
    at: new Date().toISOString(),
    status_code: 500,
    duration_ms: 5,
    error: 'HTTP 500',
    response_body: '',
  };
  const next = new Date(Date.now() + 1000).toISOString();
  const now = new Date();
  const change = { status: 'pending' as const, cycle: 2, attemptsSoFar: 0, attempt, expect: ['pending' as const] };
  stop = retryAfterCommit(writesTo(`DLV#${failed.id}`));
  try {
    expect(await settleDelivery(read, { ...change, fields: { next_attempt_at: next } }, now)).toBe(true);
  } finally {
    stop();
  }
  expect(await getDelivery(t.tenantId, failed.id)).toMatchObject({ cycle: 2, cycle_attempts: 1, status: 'pending' });
  // Another writer's change is still refused, even one identical to it at the same millisecond (a duplicate
  // queue message's), and so is a replay of the first cycle.
  expect(await settleDelivery(read, { ...change, fields: { next_attempt_at: next } }, now)).toBe(false);
  expect(await restartDelivery(read, now)).toBeUndefined();
});

it('a note edit whose response was lost and which the SDK sent again is its own success, not a 412', async () => {
  const { t, conversationId } = await sandboxConversation('+491518000932');
  const created = await call('POST', `/conversations/${conversationId}/notes`, {
    ...authOf(t),
    body: { text: 'First words.' },
  });
  expect(created.status).toBe(201);
  const stop = retryAfterCommit(writesTo(`CONVNOTE#${conversationId}#`));
  try {
    const edited = await editNote(
      t.tenantId,
      conversationId,
      created.body.id,
      created.body.author,
      'Second words.',
      1,
      new Date(),
    );
    expect(edited).toMatchObject({ text: 'Second words.', version: 2 });
  } finally {
    stop();
  }
  // Another edit from the stale version is still refused.
  expect(
    await editNote(t.tenantId, conversationId, created.body.id, created.body.author, 'Third.', 1, new Date()),
  ).toBe('version_mismatch');
});

it('a versioned update whose response was lost and which the SDK sent again is its own success, one version on', async () => {
  const t = await createTenant();
  const created = await call('POST', '/schedules', {
    ...authOf(t),
    body: { resource_id: 'chair-1', timezone: 'UTC', weekly_hours: { mon: [{ start: '09:00', end: '17:00' }] } },
  });
  expect(created.status).toBe(201);
  const stop = retryAfterCommit(writesTo('SCHED#'));
  try {
    const updated = await updateSchedule(
      t.tenantId,
      'chair-1',
      { timezone: 'Europe/Berlin' },
      [['tue', [{ start: '10:00', end: '12:00' }]]],
      new Date(),
      1,
    );
    expect(updated).toMatchObject({ timezone: 'Europe/Berlin', version: 2 });
  } finally {
    stop();
  }
  // Another request with the same stale version is still refused.
  const stale = await call('PATCH', '/schedules/chair-1', {
    ...authOf(t),
    headers: { 'If-Match': '"1"' },
    body: { timezone: 'UTC' },
  });
  expect(stale.status).toBe(412);
  // Without If-Match too: one version on, not two.
  const again = retryAfterCommit(writesTo('SCHED#'));
  try {
    const updated = await updateSchedule(t.tenantId, 'chair-1', { timezone: 'UTC' }, [], new Date(), undefined);
    expect(updated).toMatchObject({ timezone: 'UTC', version: 3 });
  } finally {
    again();
  }
});

it('a send claim whose response was lost and which the SDK sent again is its own claim, not another sender\u2019s', async () => {
  const t = await createTenant();
  const ref = { tenant_id: t.tenantId, conversation_id: 'conv_claim', message_id: 'msg_claim' };
  await db().send(
    new PutCommand({
      TableName: table,
      Item: { pk: `TENANT#${t.tenantId}`, sk: 'CONV#conv_claim#MSG#msg_claim', status: 'queued' },
    }),
  );
  const now = new Date();
  const stop = retryAfterCommit(writesTo('CONV#conv_claim#MSG#'));
  try {
    expect(await claimForSending(ref, now, 20_000, new Date(now.getTime() + 30_000))).toBe('claimed');
  } finally {
    stop();
  }
  // A second sender meanwhile finds it held.
  expect(await claimForSending(ref, now, 20_000, new Date(now.getTime() + 30_000))).toBe('held');
});

it('any update the SDK sent again after a lost response is made once, and its write id never shows', async () => {
  const key = { pk: `TEST#made-once-${Date.now()}`, sk: 'COUNTER#1' };
  const add = () =>
    db().send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'ADD hits :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
  const stop = retryAfterCommit(writesTo('COUNTER#'));
  try {
    expect((await add()).Attributes).toEqual({ ...key, hits: 1 });
  } finally {
    stop();
  }
  expect((await db().send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item).toEqual({
    ...key,
    hits: 1,
  });
  const listed = await db().send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': key.pk },
    }),
  );
  expect(listed.Items).toEqual([{ ...key, hits: 1 }]);
  // A second call is a second update.
  expect((await add()).Attributes).toEqual({ ...key, hits: 2 });
});
