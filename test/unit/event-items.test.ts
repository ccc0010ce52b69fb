import { eventFromItem, eventPut, newEvent } from '../../functions/events/store';

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
});
