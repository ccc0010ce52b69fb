import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { updateConversation } from '../../functions/conversations/service';
import { releaseDisabledUser, releasePass } from '../../functions/conversations/release-reaction';
import { getConversation } from '../../functions/conversations/store';
import { db } from '../../functions/platform/db';
import { INDEX_SETTLE_SECONDS, TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { beforeCalls, laggingReplica, writesTo } from '../support/dynamo-faults';

/**
 * A disabled user keeps no conversation: an assignment racing the disable is refused in its own
 * transaction, and the release passes over the lagging assignee index again, once it has settled, until it
 * finds nothing more.
 */
useRuntimeAws();
const table = `local-${TABLES.main.id}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function agentAndConversation(t: TestTenant, phone: string) {
  const agent = await call('POST', '/users', {
    ...authOf(t),
    body: { email: `agent-${Date.now()}@example.com`, password: 'correct horse battery staple', role: 'agent' },
  });
  expect(agent.status).toBe(201);
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone } },
  });
  return { agentId: agent.body.id as string, conversationId: opened.body.id as string };
}

const disable = (t: TestTenant, userId: string) =>
  db().send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: `TENANT#${t.tenantId}`, sk: `USER#${userId}` },
      UpdateExpression: 'SET #status = :disabled',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':disabled': 'disabled' },
    }),
  );

it('refuses an assignment to a user disabled between its check and its write', async () => {
  const t = await createTenant();
  const { agentId, conversationId } = await agentAndConversation(t, '+491518000811');
  const stop = beforeCalls(writesTo('CONV#'), () => disable(t, agentId));
  try {
    await expect(
      updateConversation(t.tenantId, conversationId, { assignee_id: agentId }, undefined, new Date()),
    ).rejects.toMatchObject({ code: 'unknown_assignee' });
  } finally {
    stop();
  }
  expect((await getConversation(t.tenantId, conversationId))?.assignee_id).toBeNull();
});

it('releases, on a pass once the index settled, an assignment the first pass did not see', async () => {
  const t = await createTenant();
  const { agentId, conversationId } = await agentAndConversation(t, '+491518000812');
  const disabled = await call('PATCH', `/users/${agentId}`, { ...authOf(t), body: { status: 'disabled' } });
  expect(disabled.status).toBe(200);
  // Let the runtime's release make its first pass over the disable (it finds nothing to release).
  await sleep(2000);
  // An assignment committed just before the disable, which the assignee index shows only 2 s later.
  const stop = laggingReplica(2000);
  try {
    await db().send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `TENANT#${t.tenantId}`, sk: `CONV#${conversationId}#~` },
        UpdateExpression: 'SET #c.#assignee = :user, c_asg = :asg',
        ExpressionAttributeNames: { '#c': 'conversation', '#assignee': 'assignee_id' },
        ExpressionAttributeValues: { ':user': agentId, ':asg': `${t.tenantId}#${agentId}` },
      }),
    );
    // The stream reaction's first pass does not see it, and asks for a pass once the index has settled.
    const next = await releaseDisabledUser({ status: 'disabled', id: agentId, tenant_id: t.tenantId });
    expect(next).toEqual({ kind: 'assignment-release', tenant_id: t.tenantId, user_id: agentId, pass: 1 });
    // SettledPasses delivers it INDEX_SETTLE_SECONDS later (or the runtime's own second pass gets there first).
    await sleep(INDEX_SETTLE_SECONDS * 1000);
    await releasePass(next!);
  } finally {
    stop();
  }
  expect((await getConversation(t.tenantId, conversationId))?.assignee_id).toBeNull();
}, 30_000);

it('ends a release with a later pass that finds nothing, and after three passes at most', async () => {
  const t = await createTenant();
  const { agentId, conversationId } = await agentAndConversation(t, '+491518000813');
  const assigned = await call('PATCH', `/conversations/${conversationId}`, {
    ...authOf(t),
    body: { assignee_id: agentId },
  });
  expect(assigned.status).toBe(200);
  await disable(t, agentId);
  const pass = { kind: 'assignment-release', tenant_id: t.tenantId, user_id: agentId } as const;
  // The third pass releases what it finds (unless the runtime's own release got there first), and is the last.
  expect(await releasePass({ ...pass, pass: 2 })).toBeUndefined();
  expect((await getConversation(t.tenantId, conversationId))?.assignee_id).toBeNull();
  // The first pass always asks for a second; a later pass that finds nothing ends the release.
  expect(await releasePass({ ...pass, pass: 0 })).toEqual({ ...pass, pass: 1 });
  expect(await releasePass({ ...pass, pass: 1 })).toBeUndefined();
});
