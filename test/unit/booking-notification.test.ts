import type { Booking } from '../../functions/bookings/booking';
import type { Conversation } from '../../functions/conversations/conversation';
import { conversationToWrite } from '../../functions/bookings/notification';
import { bookingMessage } from '../../functions/bookings/notification-text';

const booking = (extra: Partial<Booking> = {}): Booking => ({
  id: 'bkg_1',
  tenant_id: 't',
  customer: { id: 'cus_1', name: 'Ana Sousa', phone: '+351912345678', whatsapp_user_id: null, whatsapp_username: null },
  conversation_id: 'conv_1',
  service: 'Corte',
  resource_id: null,
  start_at: '2031-03-04T15:00:00.000Z',
  end_at: '2031-03-04T15:30:00.000Z',
  buffer_before_minutes: 0,
  buffer_after_minutes: 0,
  timezone: 'Europe/Lisbon',
  notes: null,
  metadata: {},
  status: 'confirmed',
  cancellation: null,
  rescheduled_from: null,
  payment: null,
  created_at: '2031-03-01T00:00:00.000Z',
  updated_at: '2031-03-01T00:00:00.000Z',
  version: 1,
  ...extra,
});

describe('what a customer is told about their booking', () => {
  it('says it in their language, with the time where the booking is', () => {
    expect(bookingMessage(booking(), 'pt')).toBe(
      'Olá Ana, a sua marcação (Corte) está confirmada para terça-feira, 4 de março às 15:00. Até breve!',
    );
    expect(bookingMessage(booking({ timezone: 'Europe/Paris' }), 'fr')).toBe(
      'Bonjour Ana, votre rendez-vous (Corte) est confirmé pour le mardi 4 mars à 16:00. À bientôt !',
    );
    const moved = booking({
      rescheduled_from: { start_at: '2031-03-03T09:00:00.000Z', end_at: '2031-03-03T09:30:00.000Z' },
    });
    expect(bookingMessage(moved, 'en')).toBe(
      'Hi Ana, your Corte has moved to Tuesday 4 March at 15:00 (it was Monday 3 March at 09:00). See you then!',
    );
  });

  it('greets without a name when the customer has none, and has nothing to say once a booking is over', () => {
    const nameless = booking({
      customer: { id: 'cus_1', name: null, phone: '+351912345678', whatsapp_user_id: null, whatsapp_username: null },
      status: 'cancelled',
    });
    expect(bookingMessage(nameless, 'de')).toBe(
      'Hallo, Ihr Termin (Corte) am Dienstag, 4. März um 15:00 Uhr ist abgesagt. Schreiben Sie uns jederzeit, wenn Sie einen neuen möchten.',
    );
    expect(bookingMessage(booking({ status: 'completed' }), 'en')).toBeNull();
    expect(bookingMessage(booking({ status: 'no_show' }), 'es')).toBeNull();
  });

  it('says one o\u2019clock and the first of the month as each language does', () => {
    const early = booking({ start_at: '2031-03-01T01:30:00.000Z', timezone: 'UTC', status: 'pending' });
    expect(bookingMessage(early, 'es')).toBe(
      'Hola Ana, hemos recibido tu solicitud de cita (Corte) para el sábado, 1 de marzo a la 01:30. Te la confirmamos enseguida.',
    );
    expect(bookingMessage(early, 'pt')).toContain('para sábado, 1 de março à 01:30.');
    expect(bookingMessage(early, 'fr')).toBe(
      'Bonjour Ana, nous avons bien reçu votre demande de rendez-vous (Corte) pour le samedi 1er mars à 01:30. Nous vous la confirmons rapidement.',
    );
    expect(bookingMessage({ ...early, status: 'cancelled' }, 'fr')).toContain('du samedi 1er mars à 01:30 est annulé.');
  });
});

describe('the conversation a booking message goes to, when the booking names none', () => {
  const conversation = (id: string, extra: Partial<Conversation>): Conversation =>
    ({ id, channel: 'sandbox', status: 'open', last_inbound_at: null, ...extra }) as Conversation;
  const now = new Date('2031-03-04T12:00:00.000Z');

  it('is the open one the customer last wrote in that can take a message now', () => {
    const stale = conversation('conv_wa', { channel: 'whatsapp', last_inbound_at: '2031-03-02T09:00:00.000Z' });
    // A sandbox conversation opened from the API, before the customer wrote: it can take a message.
    const sandbox = conversation('conv_sb', { last_inbound_at: null });
    const resolved = conversation('conv_done', { status: 'resolved', last_inbound_at: '2031-03-04T11:00:00.000Z' });
    // Latest activity first, as the customer's list comes.
    expect(conversationToWrite([resolved, stale, sandbox], now)?.id).toBe('conv_sb');
    const fresh = conversation('conv_wa2', { channel: 'whatsapp', last_inbound_at: '2031-03-04T10:00:00.000Z' });
    expect(conversationToWrite([resolved, sandbox, fresh], now)?.id).toBe('conv_wa2');
    // None can take a message now: the latest open one (the send then says why); none open: the latest.
    expect(conversationToWrite([resolved, stale], now)?.id).toBe('conv_wa');
    // The sandbox plays WhatsApp's window once the customer has written.
    const staleSandbox = conversation('conv_sb2', { last_inbound_at: '2031-03-02T10:00:00.000Z' });
    expect(conversationToWrite([stale, staleSandbox, sandbox], now)?.id).toBe('conv_sb');
    expect(conversationToWrite([resolved], now)?.id).toBe('conv_done');
    expect(conversationToWrite([], now)).toBeUndefined();
  });
});
