// Public: the channel sender claims and settles sends with it.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, refusedItem } from '../platform/db';
import { tableName } from '../platform/config';
import { dueItems } from '../platform/due-index';
import { type Message } from './conversation';

import { messageKey, messageFromItem } from './store';
import { outboundDue, OUTBOUND_DUE_KIND, SEND_LEASE, type MessageRef } from './message-store';

/** Outbound sends: the lease a sender takes on a queued message, and the due index the outbound sweeper reads. */

/** A queued outbound message as the sender's guards see it. */
export interface QueuedSend {
  ref: MessageRef;
  message: Message;
  /** The lease of the sender that took it (ms), if one did: it may have reached the channel. */
  leaseUntil: number | null;
  /** How often the outbound sweeper handed it on again. */
  sweeps: number;
  /** When the outbound sweeper may take it over (its due-index sort key). */
  takeoverAt: string | null;
}

const queuedSendOfItem = (item: Record<string, unknown>): QueuedSend => {
  const message = messageFromItem(item);
  return {
    ref: { tenant_id: message.tenant_id, conversation_id: message.conversation_id, message_id: message.id },
    message,
    leaseUntil: typeof item[SEND_LEASE] === 'number' ? item[SEND_LEASE] : null,
    sweeps: Number(item.send_sweeps ?? 0),
    takeoverAt: typeof item.gsi5sk === 'string' ? item.gsi5sk : null,
  };
};

/**
 * The message (a strongly consistent read), and its send while it is still queued, with its send lease.
 */
export async function sendStateOf(ref: MessageRef): Promise<{ message?: Message; queued?: QueuedSend }> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return {};
  if (out.Item.status !== 'queued') return { message: messageFromItem(out.Item) };
  const queued = queuedSendOfItem(out.Item);
  return { message: queued.message, queued };
}

export type SendClaim = 'claimed' | 'not_queued' | 'held' | 'outcome_unknown';

/**
 * Claims a queued outbound message for sending, with a lease: SQS delivers at least once, and two
 * workers holding the same message must not both call the provider. A lease is taken once only: one
 * that ended without an outcome belonged to a sender that died, perhaps after the provider accepted the
 * message, so its outcome is unknown and it is never claimed again (status webhooks or the outbound
 * sweeper settle it). While held, the message is in the due index by `takeoverAt`.
 */
export async function claimForSending(
  ref: MessageRef,
  now: Date,
  leaseMs: number,
  takeoverAt: Date,
): Promise<SendClaim> {
  // Sent again by the SDK after a lost response, the claim meets its own lease, which is this claim's, not
  // another sender's (db.ts).
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET #lease = :until, gsi5pk = :duePk, gsi5sk = :takeover',
        ConditionExpression: '#status = :queued AND attribute_not_exists(#lease)',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: {
          ':until': now.getTime() + leaseMs,
          ':queued': 'queued',
          ...dueValues(ref.message_id, takeoverAt),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    const item = refusedItem(error);
    if (item?.status !== 'queued') return 'not_queued';
    return Number(item[SEND_LEASE]) > now.getTime() ? 'held' : 'outcome_unknown';
  }
}

const dueValues = (id: string, takeoverAt: Date) => {
  const { gsi5pk, gsi5sk } = outboundDue(id, takeoverAt);
  return { ':duePk': gsi5pk, ':takeover': gsi5sk };
};

/**
 * Gives the lease back, after the channel refused the message (before handing it back to SQS for a
 * retry); the sweeper takes it over at `takeoverAt` should that retry be lost.
 */
export async function releaseSendClaim(ref: MessageRef, takeoverAt: Date): Promise<void> {
  // Only while queued: a message past it may carry its last change's events, which a write would repeat.
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'REMOVE #lease SET gsi5pk = :duePk, gsi5sk = :takeover',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: { ':queued': 'queued', ...dueValues(ref.message_id, takeoverAt) },
      }),
    ),
  );
}

/** Queued outbound messages the outbound sweeper may take over at `now`, oldest first in each due shard. */
export async function overdueSends(now: Date, limitPerShard: number): Promise<QueuedSend[]> {
  const items = await dueItems(OUTBOUND_DUE_KIND, now, limitPerShard);
  return items.filter((item) => item.status === 'queued').map(queuedSendOfItem);
}

/**
 * Claims an overdue message that no sender holds, for the outbound sweeper to hand on again: only if
 * nothing happened to it since it was read, so two sweeps never both hand it on. It is taken over again
 * at `takeoverAt` should that hand-off be lost too.
 */
export async function claimOverdueSend(send: QueuedSend, takeoverAt: Date): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(send.ref.tenant_id, send.ref.conversation_id, send.ref.message_id),
        UpdateExpression: 'SET gsi5pk = :duePk, gsi5sk = :takeover ADD send_sweeps :one',
        ConditionExpression: '#status = :queued AND attribute_not_exists(#lease) AND gsi5sk = :seen',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':one': 1,
          ':seen': send.takeoverAt,
          ...dueValues(send.ref.message_id, takeoverAt),
        },
      }),
    ),
  );
}

/** The condition under which a queued message is still as `send` saw it: the same lease, or none. */
export const sameSendLease = (send: QueuedSend): Record<string, unknown> => ({ [SEND_LEASE]: send.leaseUntil });

/**
 * A send that may have reached the provider but whose answer was lost: the message stays queued with the
 * reason, under a lease no retry outlives (a week), so nothing resends it; the provider's status
 * webhooks settle it (they name the message), or a person sends it again.
 */
export async function markOutcomeUnknown(ref: MessageRef, reason: string, now: Date): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET send_lease_until = :until, #error = :error, updated_at = :at',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':until': now.getTime() + 7 * 86_400_000,
          ':error': { code: 'outcome_unknown', message: `The channel may have sent this message: ${reason}` },
          ':at': now.toISOString(),
          ':queued': 'queued',
        },
      }),
    ),
  );
}
