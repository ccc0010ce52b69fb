import type { DynamoDBRecord } from 'aws-lambda';
import { clock } from '../platform/clock';
import { tenantOfPk } from '../platform/keys';
import { logger } from '../platform/workers';
import { sendTo } from './sockets';
import { deleteConnection, listConnections } from './store';
import { takesNoteSignal, type ControlMessage } from './subscription';

const CHANGES = { INSERT: 'created', MODIFY: 'updated', REMOVE: 'deleted' } as const;

/** The note a stream record names, from its keys (pk TENANT#<t>, sk CONVNOTE#<conversation>#<note>). */
export function noteSignalOf(record: DynamoDBRecord): { tenantId: string; message: ControlMessage } | undefined {
  const keys = record.dynamodb?.Keys;
  const tenantId = tenantOfPk(keys?.pk?.S);
  const [prefix, conversationId, noteId] = (keys?.sk?.S ?? '').split('#');
  const change = record.eventName ? CHANGES[record.eventName] : undefined;
  if (!tenantId || prefix !== 'CONVNOTE' || !conversationId || !noteId || !change) return undefined;
  return { tenantId, message: { type: 'realtime.note', conversation_id: conversationId, note_id: noteId, change } };
}

/**
 * Off the table's stream (the outbox dispatcher, through push.ts): tells the tenant's open connections that a conversation's team notes changed
 * (`realtime.note`), so an open conversation reads its notes again instead of polling for them. A signal,
 * not an event: notes have no event and are not in `GET /events`; a client that was disconnected reads
 * its notes again when it is live again. Best effort, like event pushes.
 */
export async function signalNoteChange(record: DynamoDBRecord): Promise<void> {
  const signal = noteSignalOf(record);
  if (!signal || signal.message.type !== 'realtime.note') return;
  const { conversation_id: conversationId } = signal.message;
  const targets = (await listConnections(signal.tenantId, clock.now())).filter((c) =>
    takesNoteSignal(c, conversationId),
  );
  await Promise.all(
    targets.map(async (connection) => {
      try {
        if ((await sendTo(connection.connectionId, signal.message)) === 'gone')
          await deleteConnection(connection.tenantId, connection.connectionId);
      } catch (error) {
        logger.warn('realtime note signal failed', {
          connection_id: connection.connectionId,
          error_name: (error as Error).name,
        });
      }
    }),
  );
}
