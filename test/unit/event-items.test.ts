import { marshall } from '@aws-sdk/util-dynamodb';
import { eventFromItem, eventPut, messageOutbox, newEvent, outboxEventsOf } from '../../functions/events/store';
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

  it("ride on a message's write and come back whole from its stream record, as Lambda's JSON event carries it", () => {
    const second = newEvent('t1', 'conversation.message.read', { message: { id: 'msg_1' } }, new Date(1000));
    const message = { pk: 'TENANT#t1', sk: 'CONV#c#MSG#m', status: 'read', ...messageOutbox([event, second]) };
    // As DynamoDB Streams hands it to the local poller (binary as bytes), then as Lambda would pass it on.
    const record = toLambdaRecord(
      { eventID: '1', eventName: 'MODIFY', dynamodb: { NewImage: marshall(message) } } as never,
      'arn:stream',
    );
    expect(typeof record.dynamodb?.NewImage?.outbox_events?.B).toBe('string');
    const image = newImageOf(record);
    expect(image?.outbox_events).toBeInstanceOf(Uint8Array);
    expect(outboxEventsOf(image ?? {})).toEqual([event, second]);
    // A message write without events of its own carries none.
    expect(outboxEventsOf({ ...message, outbox: 'channel_send' })).toEqual([]);
  });
});
