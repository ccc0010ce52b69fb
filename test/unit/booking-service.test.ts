import type { Customer } from '../../functions/customers/customer';
import type { EventEnvelope } from '../../functions/events/catalog';
import type { Booking } from '../../functions/bookings/booking';
import type { Schedule } from '../../functions/bookings/schedule';
import { bookingService, type BookingStores } from '../../functions/bookings/service';
import { BookingChanged } from '../../functions/bookings/store';
import { DomainError } from '../../functions/platform/domain-error';
import { newEvent } from '../../functions/events/store';

/**
 * The booking rules (functions/bookings/service.ts) over in-memory stores: the transitions, reschedules,
 * If-Match, retries after a concurrent change, opening hours and buffers, without DynamoDB. The slot
 * conflicts themselves are the DynamoDB store's (test/integration, test/e2e/bookings.test.ts).
 */
const TENANT = '0b6f7c1e-8f3a-4c55-9a4e-0d1c2b3a4f5e';
const NOW = new Date('2026-05-04T08:00:00Z'); // a Monday
const actor = { type: 'user' as const, id: 'usr_1' };

/** Versions checked as DynamoDB's conditions check them; `interfere` runs before a save, as a rival writer. */
class MemoryStores implements BookingStores {
  bookings = new Map<string, Booking>();
  schedules = new Map<string, Schedule>();
  customers = new Map<string, Customer>();
  conversations = new Map<string, { customer: { id: string; phone: string } }>();
  events: EventEnvelope[] = [];
  saves = 0;
  interfere?: () => void;

  getBooking = (_t: string, id: string) => Promise.resolve(this.bookings.get(id));
  getSchedule = (_t: string, resourceId: string) => Promise.resolve(this.schedules.get(resourceId));
  getConversation = (_t: string, id: string) => Promise.resolve(this.conversations.get(id));
  getCustomer = (_t: string, id: string) => Promise.resolve(this.customers.get(id));
  findCustomerByPhone = (_t: string, phone: string) =>
    Promise.resolve([...this.customers.values()].find((c) => c.phone === phone));
  findOrCreateCustomer = (tenantId: string, phone: string, name: string | null, now: Date) => {
    const found = [...this.customers.values()].find((c) => c.phone === phone);
    const customer = found ?? {
      id: `cus_${this.customers.size + 1}`,
      tenant_id: tenantId,
      name,
      phone,
      created_at: now.toISOString(),
    };
    this.customers.set(customer.id, customer);
    return Promise.resolve(customer);
  };
  saveBooking = (before: Booking | undefined, after: Booking, events: EventEnvelope[]) => {
    const interfere = this.interfere;
    this.interfere = undefined;
    interfere?.();
    const stored = this.bookings.get(after.id);
    if (before ? stored?.version !== before.version : stored) return Promise.reject(new BookingChanged('booking'));
    this.bookings.set(after.id, after);
    this.events.push(...events);
    this.saves += 1;
    return Promise.resolve();
  };
}

const hours = [{ start: '09:00', end: '18:00' }];
const schedule = (resourceId: string, buffers = { buffer_before_minutes: 0, buffer_after_minutes: 0 }): Schedule => ({
  resource_id: resourceId,
  tenant_id: TENANT,
  timezone: 'UTC',
  weekly_hours: { mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: [], sun: [] },
  date_overrides: [],
  ...buffers,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
  version: 1,
});

async function setUp() {
  const stores = new MemoryStores();
  const service = bookingService(stores);
  stores.schedules.set('chair-1', schedule('chair-1'));
  stores.schedules.set('chair-2', schedule('chair-2', { buffer_before_minutes: 10, buffer_after_minutes: 15 }));
  const booking = await service.createBooking(
    TENANT,
    {
      customer: { phone: '+4915112345678', name: 'Ana' },
      service: 'Cut',
      resource_id: 'chair-1',
      start_at: '2026-05-05T10:00:00Z',
      end_at: '2026-05-05T11:00:00Z',
      timezone: 'UTC',
    },
    NOW,
  );
  stores.events = [];
  return { stores, service, booking };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('booking rules over in-memory stores', () => {
  it('creates a confirmed booking with its customer and a booking.created event', async () => {
    const { stores, booking } = await setUp();
    expect(booking).toMatchObject({
      status: 'confirmed',
      version: 1,
      customer: { phone: '+4915112345678', name: 'Ana' },
    });
    expect(stores.bookings.get(booking.id)).toEqual(booking);
    expect(stores.customers.size).toBe(1);
  });

  it('refuses a booking outside its resource’s opening hours and creates no customer', async () => {
    const stores = new MemoryStores();
    stores.schedules.set('chair-1', schedule('chair-1'));
    const refused = bookingService(stores).createBooking(
      TENANT,
      {
        customer: { phone: '+4915100000001' },
        service: 'Cut',
        resource_id: 'chair-1',
        start_at: '2026-05-09T10:00:00Z', // a Saturday: closed
        end_at: '2026-05-09T11:00:00Z',
        timezone: 'UTC',
      },
      NOW,
    );
    expect(await codeOf(refused)).toBe('outside_opening_hours');
    expect(stores.customers.size).toBe(0);
  });

  it('reschedules: one booking.rescheduled event with the old times, and the version moves on', async () => {
    const { stores, service, booking } = await setUp();
    const after = await service.updateBooking(
      TENANT,
      booking.id,
      { start_at: '2026-05-05T14:00:00Z', end_at: '2026-05-05T15:00:00Z' },
      actor,
      1,
      NOW,
    );
    expect(after).toMatchObject({
      version: 2,
      start_at: '2026-05-05T14:00:00Z',
      rescheduled_from: { start_at: '2026-05-05T10:00:00Z', end_at: '2026-05-05T11:00:00Z' },
    });
    expect(stores.events.map((e) => e.type)).toEqual(['booking.rescheduled']);
    expect(stores.events[0]?.data).toMatchObject({ rescheduled_from: after.rescheduled_from });
  });

  it('takes the buffers of the resource it moves to', async () => {
    const { service, booking } = await setUp();
    const moved = await service.updateBooking(TENANT, booking.id, { resource_id: 'chair-2' }, actor, undefined, NOW);
    expect(moved).toMatchObject({ resource_id: 'chair-2', buffer_before_minutes: 10, buffer_after_minutes: 15 });
  });

  it('saves nothing when nothing changes', async () => {
    const { stores, service, booking } = await setUp();
    const saves = stores.saves;
    expect(await service.updateBooking(TENANT, booking.id, { service: 'Cut' }, actor, undefined, NOW)).toEqual(booking);
    expect(stores.saves).toBe(saves);
  });

  it('refuses an If-Match of another version, and a cancellation reason without cancelling', async () => {
    const { service, booking } = await setUp();
    expect(await codeOf(service.updateBooking(TENANT, booking.id, { notes: 'x' }, actor, 7, NOW))).toBe(
      'version_mismatch',
    );
    expect(
      await codeOf(service.updateBooking(TENANT, booking.id, { cancellation_reason: 'ill' }, actor, undefined, NOW)),
    ).toBe('field_requires_status');
  });

  it('retries after a concurrent change, on the booking as it is now, unless If-Match pinned the version', async () => {
    const { stores, service, booking } = await setUp();
    stores.interfere = () => stores.bookings.set(booking.id, { ...booking, notes: 'by someone else', version: 2 });
    const after = await service.updateBooking(TENANT, booking.id, { service: 'Colour' }, actor, undefined, NOW);
    expect(after).toMatchObject({ service: 'Colour', notes: 'by someone else', version: 3 });

    stores.interfere = () => stores.bookings.set(booking.id, { ...after, version: 4 });
    expect(await codeOf(service.updateBooking(TENANT, booking.id, { service: 'Cut' }, actor, 3, NOW))).toBe(
      'version_mismatch',
    );
  });

  it('cancels once (twice is harmless), records who and why, and then refuses a reschedule', async () => {
    const { stores, service, booking } = await setUp();
    const cancelled = await service.cancelBooking(TENANT, booking.id, 'ill', actor, undefined, NOW);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellation: { reason: 'ill', by: actor } });
    expect(await service.cancelBooking(TENANT, booking.id, 'again', actor, undefined, NOW)).toEqual(cancelled);
    expect(stores.events.map((e) => e.type)).toEqual(['booking.cancelled']);
    expect(
      await codeOf(
        service.updateBooking(TENANT, booking.id, { start_at: '2026-05-05T12:00:00Z' }, actor, undefined, NOW),
      ),
    ).toBe('not_reschedulable');
  });

  it('marks a booking completed only once it has started, and a completed one cannot be cancelled', async () => {
    const { service, booking } = await setUp();
    expect(
      await codeOf(service.updateBooking(TENANT, booking.id, { status: 'completed' }, actor, undefined, NOW)),
    ).toBe('booking_not_started');
    const later = new Date('2026-05-05T11:30:00Z');
    await service.updateBooking(TENANT, booking.id, { status: 'completed' }, actor, undefined, later);
    expect(await codeOf(service.cancelBooking(TENANT, booking.id, undefined, actor, undefined, later))).toBe(
      'booking_not_cancellable',
    );
  });

  it('names only a conversation with the booking’s own customer', async () => {
    const { stores, service, booking } = await setUp();
    stores.conversations.set('conv_other', { customer: { id: 'cus_other', phone: '+4915199999999' } });
    expect(
      await codeOf(service.updateBooking(TENANT, booking.id, { conversation_id: 'conv_other' }, actor, undefined, NOW)),
    ).toBe('conversation_customer_mismatch');
    expect(
      await codeOf(service.updateBooking(TENANT, booking.id, { conversation_id: 'conv_none' }, actor, undefined, NOW)),
    ).toBe('unknown_conversation');
  });

  it('commits what a caller adds in the change’s own save, made from the booking as it commits; nothing without a change', async () => {
    const { stores, service, booking } = await setUp();
    const made: number[] = [];
    const withChange = (after: Booking) => {
      made.push(after.version);
      return {
        items: [],
        events: [newEvent(TENANT, 'booking.reminder.answered', { booking: after }, NOW, `evt_v${after.version}`)],
      };
    };
    // A rival writer changes the booking before the first save: the retry makes the caller's part again.
    stores.interfere = () => stores.bookings.set(booking.id, { ...booking, notes: 'by someone else', version: 2 });
    const cancelled = await service.cancelBooking(TENANT, booking.id, 'ill', actor, undefined, NOW, withChange);
    expect(made).toEqual([2, 3]);
    expect(cancelled.version).toBe(3);
    expect(stores.events.map((e) => e.type)).toEqual(['booking.cancelled', 'booking.reminder.answered']);
    expect(stores.events[1]).toMatchObject({ id: 'evt_v3', data: { booking: cancelled } });
    const saves = stores.saves;
    expect(await service.cancelBooking(TENANT, booking.id, 'again', actor, undefined, NOW, withChange)).toEqual(
      cancelled,
    );
    expect(stores.saves).toBe(saves);
    expect(made).toEqual([2, 3]);
  });
});
