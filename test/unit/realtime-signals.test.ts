import type { DynamoDBRecord } from 'aws-lambda';
import { matchesFilter } from '../../catalog/event-filters';
import { DISPATCH_FILTERS, STREAM_REACTIONS } from '../../catalog/workers';
import { noteSignalOf } from '../../functions/realtime/note-signal';
import { revokedBy } from '../../functions/realtime/revocation';
import type { Connection } from '../../functions/realtime/subscription';

/** A stream record as DynamoDB Streams writes it (NEW_IMAGE): keys always, the new image unless removed. */
function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', sk: string, image: Record<string, string> = {}) {
  const attrs = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { S: v }]));
  const keys = { pk: 'TENANT#t1', sk };
  return {
    eventName,
    dynamodb: { Keys: attrs(keys), ...(eventName === 'REMOVE' ? {} : { NewImage: attrs({ ...keys, ...image }) }) },
  } as unknown as DynamoDBRecord;
}
const dispatched = (r: DynamoDBRecord) => DISPATCH_FILTERS.some((f) => matchesFilter(r, f));
const connection = (over: Partial<Connection>): Connection => ({
  tenantId: 't1',
  connectionId: 'c1',
  principalId: 'usr_1',
  role: 'agent',
  subscription: { types: [] },
  connectedAt: '2026-01-01T10:00:00.000Z',
  ...over,
});

it("lets the dispatcher see notes, sessions, users and API key pointers (one filter), not the reactions' reader", () => {
  for (const r of [
    record('INSERT', 'CONVNOTE#conv_1#note_1'),
    record('REMOVE', 'CONVNOTE#conv_1#note_1'),
    record('MODIFY', 'SESSION#ses_1', { revoked_at: 'x' }),
    record('MODIFY', 'USER#usr_1'),
    record('REMOVE', 'APIKEY#key_1'),
  ])
    expect(dispatched(r)).toBe(true);
  expect(dispatched(record('MODIFY', 'CUS#c1'))).toBe(false);
  const reactions = Object.values(STREAM_REACTIONS).flat();
  expect(reactions.some((f) => matchesFilter(record('INSERT', 'CONVNOTE#conv_1#note_1'), f))).toBe(false);
});

it('reads a note signal from the keys: created, updated, deleted', () => {
  expect(noteSignalOf(record('INSERT', 'CONVNOTE#conv_1#note_1'))).toEqual({
    tenantId: 't1',
    message: { type: 'realtime.note', conversation_id: 'conv_1', note_id: 'note_1', change: 'created' },
  });
  expect(noteSignalOf(record('MODIFY', 'CONVNOTE#conv_1#note_1'))?.message).toMatchObject({ change: 'updated' });
  expect(noteSignalOf(record('REMOVE', 'CONVNOTE#conv_1#note_1'))?.message).toMatchObject({ change: 'deleted' });
  expect(noteSignalOf(record('INSERT', 'SESSION#ses_1'))).toBeUndefined();
});

it('finds the connections a revocation ends: the session, the disabled user, the older ones after a new password, the key', () => {
  const ended = revokedBy(record('MODIFY', 'SESSION#ses_1', { tenant_id: 't1', revoked_at: '2026-01-01T11:00:00Z' }));
  expect(ended?.opened(connection({ sessionId: 'ses_1' }))).toBe(true);
  expect(ended?.opened(connection({ sessionId: 'ses_2' }))).toBe(false);
  // A login or a refresh revokes nothing.
  expect(revokedBy(record('INSERT', 'SESSION#ses_1', { tenant_id: 't1' }))).toBeUndefined();

  const disabled = revokedBy(
    record('MODIFY', 'USER#usr_1', { id: 'usr_1', tenant_id: 't1', status: 'disabled', credentials_changed_at: 'x' }),
  );
  expect(disabled?.opened(connection({ connectedAt: '2099-01-01T00:00:00.000Z' }))).toBe(true);
  expect(disabled?.opened(connection({ principalId: 'usr_2' }))).toBe(false);

  const newPassword = revokedBy(
    record('MODIFY', 'USER#usr_1', {
      id: 'usr_1',
      tenant_id: 't1',
      status: 'active',
      credentials_changed_at: '2026-01-01T12:00:00.000Z',
    }),
  );
  expect(newPassword?.opened(connection({ connectedAt: '2026-01-01T11:59:59.000Z' }))).toBe(true);
  expect(newPassword?.opened(connection({ connectedAt: '2026-01-01T12:00:01.000Z' }))).toBe(false);
  expect(revokedBy(record('MODIFY', 'USER#usr_1', { id: 'usr_1', tenant_id: 't1', status: 'active' }))).toBeUndefined();

  const key = revokedBy(record('REMOVE', 'APIKEY#key_1'));
  expect(key?.tenantId).toBe('t1');
  expect(key?.opened(connection({ principalId: 'key_1' }))).toBe(true);
  expect(key?.opened(connection({ principalId: 'key_2' }))).toBe(false);
});
