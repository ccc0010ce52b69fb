import { marshall } from '@aws-sdk/util-dynamodb';
import {
  belowOf,
  dispatchedEventItems,
  eventFromItem,
  eventPut,
  eventsFromItem,
  newEvent,
} from '../../functions/events/store';
import { messageEventsOf, messageOutbox } from '../../functions/conversations/message-store';
import { messageKey } from '../../functions/conversations/store';
import type { Message } from '../../functions/conversations/conversation';
import { newImageOf } from '../../functions/platform/workers';
import { toLambdaRecord } from '../../local/pollers';

describe('event items', () => {
  process.env.MAIN_TABLE_NAME ??= 'local-Main';
  const event = newEvent('t1', 'conversation.message.sent', { text: 'Olá, até já! '.repeat(40) }, new Date(0));

  it('store the envelope deflated and read it back exactly as written', () => {
    const item = eventPut(event).Put.Item;
    expect(item.event).toBeInstanceOf(Uint8Array);
    expect(item.event.length).toBeLessThan(JSON.stringify(event).length / 2);
    // As the document client hands binary back: a plain Uint8Array.
    expect(eventFromItem({ ...item, event: new Uint8Array(item.event) })).toEqual(event);
  });

  it('still read the items written before, which hold the JSON text', () => {
    expect(eventFromItem({ event: JSON.stringify(event) })).toEqual(event);
  });

  it('of conversation types take no index entry (their lists filter on etype); other types index category and type', () => {
    const item = eventPut(event).Put.Item as Record<string, unknown>;
    expect(item).toMatchObject({ etype: 'TENANT#t1#EVTTYPE#conversation.message.sent' });
    expect(Object.keys(item).filter((k) => k.startsWith('gsi'))).toEqual([]);
    const booking = eventPut(newEvent('t1', 'booking.created', {}, new Date(0))).Put.Item as Record<string, unknown>;
    expect(booking).toMatchObject({ gsi1pk: 'TENANT#t1#EVTCAT#booking', gsi2pk: 'TENANT#t1#EVTTYPE#booking.created' });
    expect(booking.etype).toBeUndefined();
  });

  it("ride on a message's write, small, and come back whole from its stream record as Lambda's JSON carries it", () => {
    const at = '2026-11-28T10:00:00.000Z';
    const queued: Message = {
      id: 'msg_01KB2ZQ7Y3X4F5G6H7J8K9M0NP',
      tenant_id: 't1',
      conversation_id: 'conv_01KB2ZQ7Y3X4F5G6H7J8K9M0NP',
      direction: 'outbound',
      type: 'text',
      text: 'On our way! '.repeat(10),
      content: null,
      scheduled_at: null,
      status: 'queued',
      sender: { type: 'api_key', id: 'key_01KB2ZQ7Y3X4F5G6H7J8K9M0NP' },
      channel: 'sandbox',
      provider_message_id: null,
      error: null,
      created_at: at,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      updated_at: at,
      analysis: null,
      reaction: null,
      media: null,
    };
    // The sandbox's send: sent, delivered and read written at once, each event the message as it stood.
    const sent: Message = { ...queued, status: 'sent', provider_message_id: 'sbx_1', sent_at: at };
    const delivered: Message = { ...sent, status: 'delivered', delivered_at: at };
    const read: Message = { ...delivered, status: 'read', read_at: at };
    const events = [sent, delivered, read].map((m, i) =>
      newEvent(
        't1',
        (['conversation.message.sent', 'conversation.message.delivered', 'conversation.message.read'] as const)[i] ??
          'conversation.message.read',
        { message: m, conversation_id: m.conversation_id },
        new Date(at),
      ),
    );
    const outbox = messageOutbox(read, events);
    // The three carry only their ids, types, times and what differs (about 130 to 210 bytes, as the random
    // part of the ids compresses), where the whole envelopes took about 430: the message stays one unit.
    expect(outbox.outbox_events.length).toBeLessThan(256);
    const item = { ...messageKey('t1', queued.conversation_id, queued.id), ...read, ...outbox };
    // As DynamoDB Streams hands it to the local poller (binary as bytes), then as Lambda passes it on.
    const record = toLambdaRecord(
      {
        eventID: '1',
        eventName: 'MODIFY',
        dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) },
      } as never,
      'arn:stream',
    );
    expect(typeof record.dynamodb?.NewImage?.outbox_events?.B).toBe('string');
    const image = newImageOf(record);
    expect(image?.outbox_events).toBeInstanceOf(Uint8Array);
    expect(messageEventsOf(image ?? {})).toEqual(events);
    // Key order too: the envelope reads exactly as the service built it.
    expect(JSON.stringify(messageEventsOf(image ?? {}))).toBe(JSON.stringify(events));
    // A message write without events of its own carries none.
    expect(messageEventsOf({ ...item, outbox: 'channel_send' })).toEqual([]);
  });

  it("of one change, from a message's outbox, share one item of one write unit when made in one millisecond", () => {
    const at = new Date('2026-11-28T10:00:00.000Z');
    const message = { id: 'msg_01KB2ZQ7Y3X4F5G6H7J8K9M0NP', text: 'On our way! '.repeat(10), status: 'sent' };
    const types = ['conversation.message.sent', 'conversation.message.delivered', 'conversation.message.read'] as const;
    // Consecutive ids in one millisecond, as the sandbox's send makes them one after the other.
    const events = types.map((type, i) => ({
      ...newEvent('t1', type, { message, conversation_id: 'conv_1' }, at),
      id: `evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N${i + 1}`,
    }));
    const items = dispatchedEventItems(events);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      pk: 'TENANT#t1',
      sk: `EVT#${events[0]?.id}`,
      etype: 'TENANT#t1#EVTTYPE#conversation.message.sent',
      dispatched: true,
    });
    expect([...(item?.etypes as Set<string>)].sort()).toEqual([...types].sort());
    expect(Object.keys(item ?? {}).filter((k) => k.startsWith('gsi'))).toEqual([]);
    // Read back exactly, key order too, from a plain Uint8Array as the document client returns binary.
    const stored = { ...item, events: new Uint8Array(item?.events as Buffer) };
    expect(JSON.stringify(eventsFromItem(stored))).toBe(JSON.stringify(events));
    // Under 1 KB with its keys: one write unit for the three.
    expect(
      JSON.stringify({ ...item, events: undefined, etypes: [...(item?.etypes as Set<string>)] }).length +
        (item?.events as Buffer).length,
    ).toBeLessThan(1024);
  });

  it('of one change are stored one item each when they cannot share one', () => {
    const at = new Date(0);
    const sent = newEvent('t1', 'conversation.message.sent', {}, at);
    const later = { ...newEvent('t1', 'conversation.message.read', {}, at), id: 'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0NP' };
    const other = newEvent('t2', 'conversation.message.read', {}, at);
    const booking = newEvent('t1', 'booking.created', {}, at);
    // Another millisecond, another tenant, another category, or out of order: one item each.
    for (const pair of [
      [sent, later],
      [sent, other],
      [sent, booking],
    ] as const) {
      const items = dispatchedEventItems([...pair]);
      expect(items.map((i) => i.sk)).toEqual(pair.map((e) => `EVT#${e.id}`));
      expect(items.every((i) => i.dispatched === true && i.events === undefined)).toBe(true);
    }
    const first = { ...sent, id: 'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N1' };
    const second = { ...newEvent('t1', 'conversation.message.read', {}, at), id: 'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N2' };
    expect(dispatchedEventItems([first, second])).toHaveLength(1);
    expect(dispatchedEventItems([second, first])).toHaveLength(2);
    // One millisecond but not consecutive: another event's id could fall between them.
    const gap = { ...second, id: 'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N4' };
    expect(dispatchedEventItems([first, gap])).toHaveLength(2);
    // One event alone is an ordinary event item, marked.
    expect(dispatchedEventItems([sent])).toEqual([{ ...eventPut(sent).Put.Item, dispatched: true }]);
  });

  it('page by event: a cursor resumes below an event id, and one issued before (an item key) still resumes', async () => {
    expect(belowOf({ below: 'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N2' })).toBe('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N2');
    expect(belowOf({ pk: 'TENANT#t1', sk: 'EVT#evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N2' })).toBe(
      'evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N2',
    );
    expect(() => belowOf({ pk: 'TENANT#t1' })).toThrow(/cursor/);
  });
});
