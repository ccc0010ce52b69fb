import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { monotonicFactory } from 'ulid';
import { analyzeInbound } from '../../functions/ai/service';
import { getConversation } from '../../functions/conversations/store';
import { db } from '../../functions/platform/db';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

/**
 * Stream records of one tenant come from parallel shards in any order: the second of two clearly negative
 * messages may be analysed before the first. The handoff must still happen once the first lands.
 */
useRuntimeAws();
const table = `local-${TABLES.main.id}`;
const ulid = monotonicFactory();

/**
 * Two inbound messages written so that the runtime's analysis worker leaves them alone (its filter takes
 * inbound messages as they are inserted): inserted as drafts, then turned inbound.
 */
async function unanalysedInbound(tenantId: string, conversationId: string, texts: string[]) {
  const ids = texts.map(() => `msg_${ulid()}`);
  for (const [i, text] of texts.entries()) {
    const key = { pk: `TENANT#${tenantId}`, sk: `CONV#${conversationId}#MSG#${ids[i]}` };
    const at = new Date().toISOString();
    await db().send(
      new PutCommand({
        TableName: table,
        Item: {
          ...key,
          id: ids[i],
          tenant_id: tenantId,
          conversation_id: conversationId,
          direction: 'draft',
          text,
          created_at: at,
        },
      }),
    );
    await db().send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'SET direction = :in',
        ExpressionAttributeValues: { ':in': 'inbound' },
      }),
    );
  }
  return ids as [string, string];
}

it('hands off when the first of two negative messages is analysed after the second', async () => {
  const t = await createTenant();
  const opened = await call('POST', '/conversations', {
    ...authOf(t),
    body: { channel: 'sandbox', customer: { phone: '+491518000901' } },
  });
  const conversationId = opened.body.id as string;
  const texts = [
    'I was charged twice for my last visit and I am really angry about it',
    'Still no refund after two weeks, this is absolutely unacceptable!!',
  ];
  const [first, second] = await unanalysedInbound(t.tenantId, conversationId, texts);
  const message = (id: string, text: string) => ({ tenant_id: t.tenantId, conversation_id: conversationId, id, text });

  const early = await analyzeInbound(message(second, texts[1] as string), new Date());
  expect(early.analysis?.sentiment.label).toBe('negative');
  expect(early.handoff).toBeUndefined();
  const late = await analyzeInbound(message(first, texts[0] as string), new Date());
  expect(late.handoff).toMatchObject({ reason: 'negative_sentiment', message_id: second });
  expect((await getConversation(t.tenantId, conversationId))?.handoff).toMatchObject({
    reason: 'negative_sentiment',
    message_id: second,
  });
});
