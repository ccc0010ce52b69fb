// Public: pushing events to open connections, for the outbox dispatcher.
import type { DynamoDBRecord } from 'aws-lambda';
import { REALTIME_SIGNAL_PREFIXES } from '../../catalog/workers';
import type { EventEnvelope } from '../events/catalog';
import { clock } from '../platform/clock';
import { logger } from '../platform/observability';
import { noteSignalOf, signalNoteChange } from './note-signal';
import { closeRevokedConnections } from './revocation';
import { sendTo } from './sockets';
import { deleteConnection, listConnections } from './store';
import { delivers, mayStillBeOpening, type Connection } from './subscription';

/** Each tenant's open connections for one stream batch (read once per batch, after its events exist). */
export type OpenConnections = Map<string, Connection[]>;

export async function openConnections(tenantIds: Iterable<string>, now: Date): Promise<OpenConnections> {
  const tenants = [...new Set(tenantIds)];
  const lists = await Promise.all(tenants.map((t) => listConnections(t, now)));
  return new Map(tenants.map((t, i) => [t, lists[i] ?? []]));
}

/** Pushes at once to this many sockets. */
const PARALLEL_PUSHES = 16;

/**
 * Pushes events, in order, to every open connection of their tenant whose role and subscription take them,
 * and forgets connections found gone (410), except one registered so recently that its socket may still be
 * opening (forgotten, it would never be pushed to again; its client resumes what it missed). Best effort:
 * a push that fails otherwise is logged and left to the client's resume (`GET /events?after=`), so a
 * socket's trouble never holds back webhooks or the stream. Returns how many pushes were made.
 */
export async function pushEvents(events: EventEnvelope[], connections: OpenConnections): Promise<number> {
  let pushed = 0;
  const gone = new Set<string>();
  for (const event of events) {
    const targets = (connections.get(event.tenant_id) ?? []).filter(
      (c) => !gone.has(c.connectionId) && delivers(c, event),
    );
    for (let i = 0; i < targets.length; i += PARALLEL_PUSHES) {
      await Promise.all(
        targets.slice(i, i + PARALLEL_PUSHES).map(async (connection) => {
          try {
            if ((await sendTo(connection.connectionId, event)) === 'sent') pushed++;
            else if (!mayStillBeOpening(connection, clock.now())) {
              gone.add(connection.connectionId);
              await deleteConnection(connection.tenantId, connection.connectionId);
            }
          } catch (error) {
            logger.warn('realtime push failed', {
              connection_id: connection.connectionId,
              event_id: event.id,
              error_name: (error as Error).name,
            });
          }
        }),
      );
    }
  }
  return pushed;
}

/**
 * A write of a team note, a session, a user or an API key pointer (catalog/workers.ts lets them through to
 * the dispatcher): a note's change is signalled to the open sockets (`realtime.note`), and a revoked
 * credential's sockets are closed. True when the record was one of those (and nothing else is to be done
 * with it).
 */
export async function handleRealtimeSignal(record: DynamoDBRecord): Promise<boolean> {
  const sk = record.dynamodb?.Keys?.sk?.S ?? '';
  if (!REALTIME_SIGNAL_PREFIXES.some((prefix) => sk.startsWith(prefix))) return false;
  if (noteSignalOf(record)) await signalNoteChange(record);
  else await closeRevokedConnections(record);
  return true;
}
