import type { Booking } from '../../functions/bookings/booking';
import { bookingMessage } from '../../functions/bookings/notification-text';

const booking = (extra: Partial<Booking> = {}): Booking => ({
  id: 'bkg_1',
  tenant_id: 't',
  customer: { id: 'cus_1', name: 'Ana Sousa', phone: '+351912345678' },
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
    const nameless = booking({ customer: { id: 'cus_1', name: null, phone: '+351912345678' }, status: 'cancelled' });
    expect(bookingMessage(nameless, 'de')).toBe(
      'Hallo, Ihr Termin (Corte) am Dienstag, 4. März um 15:00 ist abgesagt. Schreiben Sie uns jederzeit, wenn Sie einen neuen möchten.',
    );
    expect(bookingMessage(booking({ status: 'completed' }), 'en')).toBeNull();
    expect(bookingMessage(booking({ status: 'no_show' }), 'es')).toBeNull();
  });
});
