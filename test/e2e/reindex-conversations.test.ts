import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../functions/conversations/conversation';
import { conversationFromItem, conversationKey, messageKey } from '../../functions/conversations/store';
import { messagePut } from '../../functions/conversations/message-store';
import { db } from '../../functions/platform/db';
import { newId } from '../../functions/platform/ids';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, idsOf, settlesTo } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { testRuntime } from '../support/runtime';

/**
 * Deployments before the five conversation indexes stored a conversation's API fields as top-level
 * attributes, and both conversations and tag snapshots with gsi1pk…gsi6sk; no list finds such items.
 * `npm run ops -- reindex-conversations` rewrites them in today's shape, once.
 */
useRuntimeAws();
const table = `local-${TABLES.main.id}`;

const ops = async (...args: string[]) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], {
    env: { ...process.env, LOCAL_RUNTIME_FILE: testRuntime().opsFile },
  });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>;
};

const item = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;

/** The items as the old store wrote them (git history: functions/conversations/store.ts before the c_* indexes). */
function legacyItems(c: Conversation, tag: string) {
  const pk = `TENANT#${c.tenant_id}`;
  const list = (...parts: string[]) => [`${pk}#CONV`, ...parts].join('#');
  const sk = `${c.last_activity_at}#${c.id}`;
  return {
    conversation: {
      pk,
      sk: `CONV#${c.id}#~`,
      gsi1pk: list(),
      gsi1sk: sk,
      gsi2pk: list('status', c.status),
      gsi2sk: sk,
      gsi3pk: list('channel', c.channel),
      gsi3sk: sk,
      gsi4pk: list('customer', c.customer.id),
      gsi4sk: sk,
      gsi5pk: list('status', c.status, 'channel', c.channel),
      gsi5sk: sk,
      gsi6pk: list('status', c.status, 'customer', c.customer.id),
      gsi6sk: sk,
      ...c,
    },
    tag: {
      pk,
      sk: `CONVTAG#${c.id}#${tag}`,
      gsi1pk: list('tag', tag),
      gsi1sk: sk,
      gsi2pk: list('status', c.status, 'tag', tag),
      gsi2sk: sk,
      conversation: c,
    },
  };
}

it('rewrites conversations stored before the five indexes, so every list finds them again, once', async () => {
  const t = await createTenant();
  const tag = 'legacy';
  const created = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491517000001', name: 'Old' }, tags: [tag], priority: 'high' },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const key = conversationKey(t.tenantId, id);
  const conversation = conversationFromItem((await item(key)) ?? {});
  const legacy = legacyItems(conversation, tag);
  await db().send(new PutCommand({ TableName: table, Item: legacy.conversation }));
  await db().send(new PutCommand({ TableName: table, Item: legacy.tag }));
  // A message in the same partition (sent: no worker picks it up), which the command must leave alone.
  const at = new Date().toISOString();
  const message = {
    id: newId('msg'),
    tenant_id: t.tenantId,
    conversation_id: id,
    direction: 'outbound' as const,
    type: 'text' as const,
    content: null,
    scheduled_at: null,
    text: 'from before the upgrade',
    status: 'sent' as const,
    sender: { type: 'user' as const, id: t.adminUserId },
    channel: 'sandbox' as const,
    provider_message_id: null,
    error: null,
    created_at: at,
    sent_at: at,
    delivered_at: null,
    read_at: null,
    failed_at: null,
    updated_at: at,
    analysis: null,
  };
  await db().send(new PutCommand(messagePut(message).Put));
  const messageItem = await item(messageKey(t.tenantId, id, message.id));

  const before = await call('GET', `/conversations/${id}`, authOf(t));
  expect(before.status).toBe(200);
  expect(before.body.messages.map((m: { id: string }) => m.id)).toEqual([message.id]);
  const lists = [
    '',
    '?status=open',
    '?channel=sandbox',
    '?status=open&channel=sandbox',
    `?customer_id=${conversation.customer.id}`,
    `?status=open&customer_id=${conversation.customer.id}`,
    `?tag=${tag}`,
    `?status=open&tag=${tag}`,
  ];
  const listed = async () =>
    Promise.all(
      lists.map(async (query) => {
        const res = await call('GET', `/conversations${query}`, authOf(t));
        expect(res.status).toBe(200);
        return res.body.data.some((c: { id: string }) => c.id === id);
      }),
    );
  await settlesTo(
    () => listed(),
    lists.map(() => false),
  );

  // Snoozed before the snooze waker: in every list, but not in the due index, so it would never wake.
  const sleeper = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491517000002' } },
  });
  const sleeperKey = conversationKey(t.tenantId, sleeper.body.id);
  const until = new Date(Date.now() + 3600_000).toISOString();
  const snoozed = await call('PATCH', `/conversations/${sleeper.body.id}`, {
    ...authOf(t),
    body: { status: 'snoozed', snoozed_until: until },
  });
  expect(snoozed.status).toBe(200);
  expect((await item(sleeperKey))?.gsi5pk).toMatch(/^SNOOZED#\d{1,3}$/);
  await db().send(new UpdateCommand({ TableName: table, Key: sleeperKey, UpdateExpression: 'REMOVE gsi5pk, gsi5sk' }));

  // Assigned before the assignee index: not on the user's list.
  const assigned = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491517000003' }, assignee_id: t.adminUserId },
  });
  const assignedKey = conversationKey(t.tenantId, assigned.body.id);
  await db().send(new UpdateCommand({ TableName: table, Key: assignedKey, UpdateExpression: 'REMOVE c_asg' }));
  const mine = async () =>
    (await call('GET', `/conversations?assignee_id=${t.adminUserId}`, authOf(t))).body.data.map(
      (c: { id: string }) => c.id,
    );
  await settlesTo(mine, []);

  expect(await ops('reindex-conversations', '--dry-run')).toEqual({
    scanned: 4,
    rewritten: 0,
    skipped: 0,
    dry_run: true,
  });
  expect(await item(key)).toEqual(legacy.conversation);
  expect(await ops('reindex-conversations')).toEqual({ scanned: 4, rewritten: 4, skipped: 0, dry_run: false });
  await settlesTo(mine, [assigned.body.id]);
  expect(await item(sleeperKey)).toMatchObject({
    gsi5pk: expect.stringMatching(/^SNOOZED#\d{1,3}$/),
    gsi5sk: `${until}#${t.tenantId}#${sleeper.body.id}`,
    conversation: { status: 'snoozed', version: snoozed.body.version },
  });

  await settlesTo(
    () => listed(),
    lists.map(() => true),
  );
  const after = await call('GET', `/conversations/${id}`, authOf(t));
  expect(after.body).toEqual(before.body);
  expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  const stored = await item(key);
  expect(Object.keys(stored ?? {}).sort()).toEqual(['c_act', 'c_all', 'c_cus', 'c_st', 'conversation', 'pk', 'sk']);
  expect(stored?.conversation).toEqual(conversation);
  expect(Object.keys((await item({ pk: key.pk, sk: legacy.tag.sk })) ?? {}).sort()).toEqual([
    'c_act',
    'c_all',
    'c_st',
    'conversation',
    'pk',
    'sk',
  ]);
  expect(await item(messageKey(t.tenantId, id, message.id))).toEqual(messageItem);

  // Idempotent: nothing left in the old shape.
  expect(await ops('reindex-conversations')).toEqual({ scanned: 0, rewritten: 0, skipped: 0, dry_run: false });
  // And the conversation takes changes again, moving between lists as they do.
  const patched = await call('PATCH', `/conversations/${id}`, { ...authOf(t), body: { status: 'pending' } });
  expect(patched.body).toMatchObject({ status: 'pending', version: conversation.version + 1 });
  await settlesTo(async () => idsOf(await call('GET', `/conversations?status=pending&tag=${tag}`, authOf(t))), [id]);
}, 60_000);

it('puts named customers stored before the name search into it, once', async () => {
  const t = await createTenant();
  const inbound = (from: string, name?: string) =>
    call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: { from, text: 'Hello', ...(name ? { name } : {}) },
    });
  const customer = (await inbound('+491517000011', 'Zoë Legacy')).body.conversation.customer;
  await inbound('+491517000012');
  const key = { pk: `TENANT#${t.tenantId}`, sk: `CUS#${customer.id}` };
  // As stored before the name search: no index keys, no later-word entry.
  await db().send(
    new UpdateCommand({ TableName: table, Key: key, UpdateExpression: 'REMOVE gsi1pk, gsi1sk, name_words' }),
  );
  await db().send(new DeleteCommand({ TableName: table, Key: { ...key, sk: `CUSWORD#${customer.id}#1` } }));
  const foundBy = async (name: string) =>
    (await call('GET', `/customers?name=${name}`, authOf(t))).body.data.map((c: { id: string }) => c.id);
  const found = () => foundBy('zoe');
  await settlesTo(() => found(), []);
  await settlesTo(() => foundBy('legacy'), []);

  expect(await ops('reindex-customers', '--dry-run')).toEqual({ scanned: 1, rewritten: 0, skipped: 0, dry_run: true });
  await settlesTo(() => found(), []);
  expect(await ops('reindex-customers')).toEqual({ scanned: 1, rewritten: 1, skipped: 0, dry_run: false });
  await settlesTo(() => found(), [customer.id]);
  await settlesTo(() => foundBy('legacy'), [customer.id]);
  const got = await call('GET', `/customers/${customer.id}`, authOf(t));
  expect(got.body).toMatchObject({ name: 'Zoë Legacy', version: 1 });
  expect(Object.keys(got.body).sort()).toEqual(
    [
      'created_at',
      'id',
      'name',
      'phone',
      'tenant_id',
      'updated_at',
      'version',
      'whatsapp_user_id',
      'whatsapp_username',
    ].sort(),
  );
  expect(await ops('reindex-customers')).toEqual({ scanned: 0, rewritten: 0, skipped: 0, dry_run: false });
});
