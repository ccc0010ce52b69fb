import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../catalog/routes';
import { REALTIME_LIMITS } from '../../catalog/realtime';
import { epochSeconds } from '../platform/clock';
import { tableName } from '../platform/config';
import { db, isConditionFailure, queryAll, retryTransient } from '../platform/db';
import { tenantPk } from '../platform/keys';
import type { Connection, ConnectionOwner, Subscription } from './subscription';

/**
 * The Realtime table: tickets and open WebSocket connections, every item with a TTL.
 *   pk TICKET#<sha-256 of the ticket>  sk TICKET           a ticket, and the connection that redeemed it (the ticket itself is never stored)
 *   pk TENANT#<t>                      sk CONN#<conn id>   a tenant's open connection: owner, role, subscription
 *   pk CONN#<conn id>                  sk CONN             which tenant a connection belongs to ($disconnect and
 *                                                          client messages name only the connection)
 * Expired items are not trusted to be gone: reads check `ttl` themselves.
 */
const table = () => tableName('realtime');
const ticketKey = (hash: string) => ({ pk: `TICKET#${hash}`, sk: 'TICKET' });
const CONNECTION_SK_PREFIX = 'CONN#';
const connectionKey = (tenantId: string, connectionId: string) => ({
  pk: tenantPk(tenantId),
  sk: `${CONNECTION_SK_PREFIX}${connectionId}`,
});
const pointerKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' });

export interface StoredTicket extends ConnectionOwner {
  subscription: Subscription;
}

const subscriptionAttributes = (s: Subscription) => ({ types: s.types, conversation_id: s.conversationId ?? null });
const subscriptionFromItem = (item: Record<string, unknown>): Subscription => ({
  types: Array.isArray(item.types) ? (item.types as string[]) : [],
  ...(typeof item.conversation_id === 'string' ? { conversationId: item.conversation_id } : {}),
});

const sessionAttribute = (sessionId: string | undefined) => (sessionId ? { session_id: sessionId } : {});
const sessionOfItem = (item: Record<string, unknown>) =>
  typeof item.session_id === 'string' ? { sessionId: item.session_id } : {};

export async function putTicket(hash: string, ticket: StoredTicket, expiresAt: Date): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...ticketKey(hash),
        tenant_id: ticket.tenantId,
        principal_id: ticket.principalId,
        role: ticket.role,
        ...sessionAttribute(ticket.sessionId),
        ...subscriptionAttributes(ticket.subscription),
        expires: epochSeconds(expiresAt),
        ttl: epochSeconds(expiresAt),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Takes a ticket for one connection: marks it redeemed by that connection if it belongs to this tenant,
 * has not expired and no other connection took it, and returns what it held. The conditional write is the
 * single use: of two connections racing with one ticket, one wins. The same connection may take it again
 * (a retried write whose first response was lost), so a retry never refuses its own connection. A ticket
 * presented for another tenant is left alone (and refused); TTL removes tickets.
 */
export async function redeemTicket(
  hash: string,
  tenantId: string,
  connectionId: string,
  now: Date,
): Promise<StoredTicket | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(hash),
        UpdateExpression: 'SET redeemed_by = :connection',
        ConditionExpression:
          'tenant_id = :tenant AND expires > :now AND (attribute_not_exists(redeemed_by) OR redeemed_by = :connection)',
        ExpressionAttributeValues: { ':tenant': tenantId, ':now': epochSeconds(now), ':connection': connectionId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const item = out.Attributes;
    if (!item) return undefined;
    return {
      tenantId: String(item.tenant_id),
      principalId: String(item.principal_id),
      role: item.role as Role,
      ...sessionOfItem(item),
      subscription: subscriptionFromItem(item),
    };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

const connectionFromItem = (tenantId: string, item: Record<string, unknown>): Connection => ({
  tenantId,
  connectionId: String(item.sk).slice(CONNECTION_SK_PREFIX.length),
  principalId: String(item.principal_id),
  role: item.role as Role,
  ...sessionOfItem(item),
  subscription: subscriptionFromItem(item),
  connectedAt: String(item.connected_at),
});

/** The connection id of a connection item (the greeter reads it from the stream's new image). */
export const connectionIdOfItem = (item: Record<string, unknown>): string | undefined =>
  typeof item.sk === 'string' && item.sk.startsWith(CONNECTION_SK_PREFIX)
    ? item.sk.slice(CONNECTION_SK_PREFIX.length)
    : undefined;

/**
 * The tenant's open connections, read strongly consistent: a connection registered before an event was
 * committed is always among them, so the event is pushed to it. A tenant has at most a few hundred.
 */
export async function listConnections(tenantId: string, now: Date): Promise<Connection[]> {
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': CONNECTION_SK_PREFIX },
    ConsistentRead: true,
  });
  return items
    .filter((item) => typeof item.ttl === 'number' && item.ttl > epochSeconds(now))
    .map((item) => connectionFromItem(tenantId, item));
}

/** Registers an open connection: its item in the tenant's list and the pointer from its id, together. */
export async function putConnection(connection: Connection, now: Date): Promise<void> {
  const ttl = epochSeconds(now) + REALTIME_LIMITS.connectionSeconds;
  // The ticket is spent by now: a moment's conflict or throttling must not refuse the handshake.
  await retryTransient(() =>
    db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: {
                ...connectionKey(connection.tenantId, connection.connectionId),
                principal_id: connection.principalId,
                role: connection.role,
                ...sessionAttribute(connection.sessionId),
                ...subscriptionAttributes(connection.subscription),
                connected_at: connection.connectedAt,
                ttl,
              },
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...pointerKey(connection.connectionId), tenant_id: connection.tenantId, ttl },
            },
          },
        ],
      }),
    ),
  );
}

/** The open connection with this id, found through its pointer; undefined once it is gone or expired. */
export async function getConnection(connectionId: string, now: Date): Promise<Connection | undefined> {
  const tenantId = await tenantOfConnection(connectionId);
  if (!tenantId) return undefined;
  const out = await db().send(
    new GetCommand({ TableName: table(), Key: connectionKey(tenantId, connectionId), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item || typeof item.ttl !== 'number' || item.ttl <= epochSeconds(now)) return undefined;
  return connectionFromItem(tenantId, item);
}

/** Replaces a connection's subscription; false when the connection is gone. */
export async function setSubscription(
  tenantId: string,
  connectionId: string,
  subscription: Subscription,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: connectionKey(tenantId, connectionId),
        UpdateExpression: 'SET types = :types, conversation_id = :conversation',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':types': subscription.types,
          ':conversation': subscription.conversationId ?? null,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Forgets a connection (closed, or gone when a push found it so). Forgetting it twice is harmless. */
export async function deleteConnection(tenantId: string, connectionId: string): Promise<void> {
  await retryTransient(() =>
    db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: connectionKey(tenantId, connectionId) } },
          { Delete: { TableName: table(), Key: pointerKey(connectionId) } },
        ],
      }),
    ),
  );
}

/** The tenant of a connection by its pointer alone (for `$disconnect`, whatever the item's state). */
export async function tenantOfConnection(connectionId: string): Promise<string | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: table(), Key: pointerKey(connectionId), ConsistentRead: true }),
  );
  return typeof out.Item?.tenant_id === 'string' ? out.Item.tenant_id : undefined;
}
