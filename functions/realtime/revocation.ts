import type { DynamoDBRecord } from 'aws-lambda';
import { clock } from '../platform/clock';
import { tenantOfPk } from '../platform/keys';
import { logger, newImageOf } from '../platform/workers';
import { closeConnection } from './sockets';
import { deleteConnection, listConnections } from './store';
import type { Connection } from './subscription';

/** Which of a tenant's connections a revoked credential opened. */
type Revoked = { tenantId: string; opened: (c: Connection) => boolean };

/** What a stream record revokes, read from the item it wrote (or, for a removed API key, its keys). */
export function revokedBy(record: DynamoDBRecord): Revoked | undefined {
  if (record.eventName === 'REMOVE') {
    const keys = record.dynamodb?.Keys;
    const tenantId = tenantOfPk(keys?.pk?.S);
    const sk = keys?.sk?.S ?? '';
    if (!tenantId || !sk.startsWith('APIKEY#')) return undefined;
    const keyId = sk.slice('APIKEY#'.length);
    return { tenantId, opened: (c) => c.principalId === keyId };
  }
  const item = newImageOf(record);
  const sk = typeof item?.sk === 'string' ? item.sk : '';
  const tenantId = typeof item?.tenant_id === 'string' ? item.tenant_id : undefined;
  if (!item || !tenantId) return undefined;
  if (sk.startsWith('SESSION#') && typeof item.revoked_at === 'string') {
    const sessionId = sk.slice('SESSION#'.length);
    return { tenantId, opened: (c) => c.sessionId === sessionId };
  }
  if (sk.startsWith('USER#') && typeof item.id === 'string') {
    const userId = item.id;
    // Disabled: every connection goes. A new password: the ones opened before it (its sessions died then).
    if (item.status === 'disabled') return { tenantId, opened: (c) => c.principalId === userId };
    const changedAt = typeof item.credentials_changed_at === 'string' ? item.credentials_changed_at : undefined;
    if (changedAt) return { tenantId, opened: (c) => c.principalId === userId && c.connectedAt <= changedAt };
  }
  return undefined;
}

/**
 * Off the table's stream (the outbox dispatcher, through push.ts): closes the open realtime connections of a revoked credential and forgets them,
 * so they receive no further pushes (the dispatcher pushes only to connections it finds). A credential
 * revoked by a request is thus cut off within the stream's delay, not at the socket's 2-hour end.
 * Idempotent: a record handled twice finds nothing left to close.
 */
export async function closeRevokedConnections(record: DynamoDBRecord): Promise<void> {
  const revoked = revokedBy(record);
  if (!revoked) return;
  const connections = (await listConnections(revoked.tenantId, clock.now())).filter(revoked.opened);
  for (const connection of connections) {
    await deleteConnection(connection.tenantId, connection.connectionId);
    await closeConnection(connection.connectionId);
  }
  if (connections.length > 0)
    logger.info('realtime connections of a revoked credential closed', {
      tenant_id: revoked.tenantId,
      closed: connections.length,
    });
}
