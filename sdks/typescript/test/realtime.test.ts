// Realtime subscriptions against the real runtime's WebSocket server: live pushes, filters, and a drop
// that is resumed through GET /events with nothing missed and nothing twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket as WsWebSocket } from 'ws';
import type { Event, RealtimeControl, RealtimeStatus, RealtimeSubscription, WebSocketConstructor } from '../src/index.js';
import { eventually, newTenant, phone, runtime, type TestTenant } from './helpers.js';

let t: TestTenant;
const subscriptions: RealtimeSubscription[] = [];
before(async () => {
  t = await newTenant();
});
after(() => {
  for (const s of subscriptions) s.close();
});

const texts = (events: Event[]) =>
  events.filter((e) => e.type === 'conversation.message.received').map((e) => (e.data as { message: { text: string } }).message.text);

/** A subscription that records what it receives, each socket's connection id, and its statuses. */
function record(options: { types?: Parameters<TestTenant['client']['realtime']['subscribe']>[0]['types']; conversationId?: string; WebSocket?: WebSocketConstructor } = {}) {
  const events: Event[] = [];
  const statuses: RealtimeStatus[] = [];
  const subscription = t.client.realtime.subscribe({
    ...options,
    onEvent: (event) => void events.push(event),
    onStatus: (status) => void statuses.push(status),
    reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
  });
  subscriptions.push(subscription);
  return { subscription, events, statuses };
}

describe('realtime', () => {
  it('pushes events as they are committed, with the global WebSocket (Node 22)', async () => {
    const { subscription, events } = record();
    await subscription.ready();
    const from = phone();
    await t.client.channels.sandboxInbound({ from, text: 'live one' });
    await eventually(async () => texts(events), (list) => list.includes('live one'));
    const pushed = events.find((e) => texts([e])[0] === 'live one');
    assert.ok(pushed);
    assert.deepEqual(await t.client.events.get(pushed.id), pushed);
    subscription.close();
  });

  it('passes control messages such as realtime.note to onControl, never to onEvent', async () => {
    const controls: RealtimeControl[] = [];
    const events: Event[] = [];
    const subscription = t.client.realtime.subscribe({
      onEvent: (event) => void events.push(event),
      onControl: (message) => void controls.push(message),
    });
    subscriptions.push(subscription);
    await subscription.ready();
    const opened = await t.client.channels.sandboxInbound({ from: phone(), text: 'note me' });
    assert.ok('conversation' in opened);
    const note = await t.client.conversations.notes.create(opened.conversation.id, { text: 'Prefers mornings' });
    const signal = await eventually(
      async () => controls.find((m) => m.type === 'realtime.note' && m.note_id === note.id),
      (found) => found !== undefined,
    );
    assert.deepEqual(signal, { type: 'realtime.note', conversation_id: opened.conversation.id, note_id: note.id, change: 'created' });
    assert.ok(events.every((e) => typeof e.id === 'string' && !e.type.startsWith('realtime.')));
    subscription.close();
  });

  it('filters by type and conversation, with the ws package', async () => {
    const from = phone();
    const first = await t.client.channels.sandboxInbound({ from, text: 'opening' });
    assert.ok('conversation' in first);
    const bookings = record({ types: ['booking.*'], WebSocket: WsWebSocket as unknown as WebSocketConstructor });
    const one = record({ conversationId: first.conversation.id, WebSocket: WsWebSocket as unknown as WebSocketConstructor });
    await Promise.all([bookings.subscription.ready(), one.subscription.ready()]);
    await t.client.channels.sandboxInbound({ from: phone(), text: 'elsewhere' });
    await t.client.channels.sandboxInbound({ from, text: 'in the one' });
    await eventually(async () => texts(one.events), (list) => list.includes('in the one'));
    assert.deepEqual(texts(one.events), ['in the one']);
    assert.deepEqual(bookings.events, []);
  });

  it('resumes after a drop from its last event: nothing missed, nothing twice', async () => {
    const { subscription, events, statuses } = record();
    await subscription.ready();
    await t.client.channels.sandboxInbound({ from: phone(), text: 'before the drop' });
    await eventually(async () => texts(events), (list) => list.includes('before the drop'));

    // The server closes every socket; while the subscription reconnects, more events are committed.
    const connections = await openConnectionIds();
    assert.ok(connections.length > 0);
    const management = runtime().realtimeUrl.replace(/^ws/, 'http');
    const statusesBefore = statuses.length;
    for (const id of connections) await fetch(`${management}/@connections/${encodeURIComponent(id)}`, { method: 'DELETE' });
    await t.client.channels.sandboxInbound({ from: phone(), text: 'during the drop 1' });
    await t.client.channels.sandboxInbound({ from: phone(), text: 'during the drop 2' });
    await eventually(async () => texts(events), (list) => list.includes('during the drop 2'));
    await t.client.channels.sandboxInbound({ from: phone(), text: 'after the drop' });
    await eventually(async () => texts(events), (list) => list.includes('after the drop'));

    assert.ok(statuses.slice(statusesBefore).includes('reconnecting'), `statuses: ${statuses.join(', ')}`);
    const ids = events.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'an event was delivered twice');
    const seen = texts(events);
    for (const text of ['before the drop', 'during the drop 1', 'during the drop 2', 'after the drop'])
      assert.equal(seen.filter((x) => x === text).length, 1, `${text}: ${seen.join(' | ')}`);
    assert.equal(subscription.lastEventId, [...ids].sort().at(-1));
  });
});

/** The tenant's open connections (the management API lists none, so the Realtime table is read). */
async function openConnectionIds(): Promise<string[]> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: runtime().dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const out = await db.send(
    new QueryCommand({
      TableName: 'local-Realtime',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :conn)',
      ExpressionAttributeValues: { ':pk': `TENANT#${t.tenantId}`, ':conn': 'CONN#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.sk).slice('CONN#'.length));
}

