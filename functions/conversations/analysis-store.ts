// Public: the assistant stores its analyses of a conversation.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db } from '../platform/db';
import { tableName } from '../platform/config';
import { tenantPk } from '../platform/keys';
import { type MessageAnalysis } from './conversation';

import { messageKey } from './store';
import { getMessage, type MessageRef } from './message-store';

/** The AI analysis stored on inbound messages, and the neighbouring analyses a handoff decision reads. */

/**
 * Stores a message's analysis once: a redelivered stream record finds it already there and gets the
 * stored one back, so the handoff decision is made on the same verdict. `A` is the writer's own,
 * narrower type: what it reads back is what it stored.
 */
export async function recordAnalysis<A extends MessageAnalysis>(ref: MessageRef, analysis: A): Promise<A | undefined> {
  const stored = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET analysis = :a',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(analysis) OR analysis = :null)',
        ExpressionAttributeValues: { ':a': analysis, ':null': null },
      }),
    ),
  );
  if (stored) return analysis;
  return ((await getMessage(ref))?.analysis as A | null | undefined) ?? undefined;
}

/**
 * The customer's messages in `sk` order between two keys of one conversation (this message's own left out),
 * with their ids and analyses: one strongly consistent Query of at most 25 items, no Scan.
 */
async function inboundAnalysesBetween(ref: MessageRef, from: string, to: string, newestFirst: boolean, count: number) {
  const ownSk = messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk;
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': tenantPk(ref.tenant_id), ':from': from, ':to': to },
      ExpressionAttributeNames: { '#direction': 'direction', '#id': 'id' },
      ProjectionExpression: 'sk, #id, #direction, analysis',
      ScanIndexForward: !newestFirst,
      Limit: 25,
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((item) => item.sk !== ownSk && item.direction === 'inbound').slice(0, count);
}

/**
 * The customer's next messages after this one, oldest first, with their analyses (null where not yet
 * analysed). A message analysed late (stream records of parallel shards come in any order) re-checks
 * these, which were judged without it.
 */
export async function laterInboundAnalyses<A extends MessageAnalysis = MessageAnalysis>(
  ref: MessageRef,
  count: number,
): Promise<{ message_id: string; analysis: A | null }[]> {
  const ownSk = messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk;
  const items = await inboundAnalysesBetween(ref, ownSk, `CONV#${ref.conversation_id}#MSG#~`, false, count);
  return items.map((item) => ({ message_id: String(item.id), analysis: (item.analysis as A | undefined) ?? null }));
}

/** The analyses of the customer's messages before this one, newest first; `A` as for recordAnalysis. */
export async function earlierInboundAnalyses<A extends MessageAnalysis = MessageAnalysis>(
  ref: MessageRef,
  count: number,
): Promise<(A | null)[]> {
  const ownSk = messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk;
  const items = await inboundAnalysesBetween(ref, `CONV#${ref.conversation_id}#MSG#`, ownSk, true, count);
  return items.map((item) => (item.analysis as A | undefined) ?? null);
}
