// Public: booking changes (confirm, cancel, reschedule), for the reminders' one-tap answers.
import { DomainError } from '../platform/domain-error';
import { retryOnConflict } from '../platform/retry';
import { diff } from '../platform/fields';
import { newId } from '../platform/ids';
import type { EventEnvelope, EventType } from '../events/catalog';
import { eventPut, newEvent } from '../events/store';
import { customerView, requirePhone } from '../customers/customer';
import { findCustomerByPhone, findOrCreateCustomer, getCustomer } from '../customers/store';
import { getConversation } from '../conversations/store';
import type { Sender } from '../auth/principal';
import type { TransactItem } from '../platform/db';
import { bookingRequirement, paymentForNewBooking, paymentOnBookingChange } from '../payments/service';
import type { PaymentRequirement } from '../payments/payment';
import {
  DETAIL_FIELDS,
  NO_BUFFERS,
  TIME_FIELDS,
  beforeScheduleHorizon,
  isActive,
  outcomeProblem,
  timeProblem,
  transitionProblem,
  type Booking,
  type BookingStatus,
  type Buffers,
  STATUS_EVENTS,
} from './booking';
import { outsideHoursProblem, type Schedule } from './schedule';
import { getSchedule } from './schedule-store';
import { BookingChanged, getBooking, saveBooking } from './store';

/**
 * What the booking rules read and write: the DynamoDB stores in the functions, an in-memory stand-in in
 * the unit tests (test/unit/booking-service.test.ts), so the rules are tested without DynamoDB.
 */
export interface BookingStores {
  getBooking(tenantId: string, id: string): Promise<Booking | undefined>;
  /**
   * Writes `after` (conditional on `before`'s version, or on no booking when there is no `before`), its
   * slots and its events in one transaction; throws BookingChanged when a slot or the booking changed
   * underneath, a conflict when another booking holds the time.
   */
  saveBooking(
    before: Booking | undefined,
    after: Booking,
    events: EventEnvelope[],
    now: Date,
    extra?: TransactItem[],
  ): Promise<void>;
  getSchedule(tenantId: string, resourceId: string): Promise<Schedule | undefined>;
  getConversation(
    tenantId: string,
    id: string,
  ): Promise<{ customer: { id: string; phone: string | null } } | undefined>;
  getCustomer: typeof getCustomer;
  findCustomerByPhone: typeof findCustomerByPhone;
  findOrCreateCustomer: typeof findOrCreateCustomer;
  /** The payments a booking may wait for (payments/service.ts); without them, no booking requires one. */
  payments?: BookingPayments;
}

/** What bookings ask of payments: each booking change that touches a payment commits with it. */
export interface BookingPayments {
  requirementFor(tenantId: string, service: string): Promise<PaymentRequirement | undefined>;
  forNewBooking(
    booking: Booking,
    baseUrl: string,
    now: Date,
  ): Promise<{ items: TransactItem[]; events: EventEnvelope[]; abandon(): Promise<void> }>;
  onChange(
    before: Booking,
    after: Booking,
    now: Date,
  ): Promise<{ items: TransactItem[]; events: EventEnvelope[]; afterCommit(): Promise<unknown> }>;
}

const dynamoStores: BookingStores = {
  getBooking,
  saveBooking: (before, after, events, now, extra = []) =>
    saveBooking(before, after, [...events.map(eventPut), ...extra], now),
  getSchedule,
  getConversation,
  getCustomer,
  findCustomerByPhone,
  findOrCreateCustomer,
  payments: {
    requirementFor: bookingRequirement,
    forNewBooking: paymentForNewBooking,
    onChange: paymentOnBookingChange,
  },
};

const bookingEvent = (b: Booking, type: EventType, now: Date, extra: Record<string, unknown> = {}) =>
  newEvent(b.tenant_id, type, { booking: b, ...extra }, now);

/**
 * Optimistic writes are retried with jittered back-off when a slot changed underneath (inner intervals
 * of one quarter, or a transaction conflict) without an overlap.
 * A change to the booking itself is a version mismatch when the caller pinned If-Match, else it is retried too.
 */
function withRetry<T>(fn: () => Promise<T>, strict: boolean): Promise<T> {
  const attempt = () =>
    fn().catch((error: unknown) => {
      throw strict && error instanceof BookingChanged && error.what === 'booking'
        ? DomainError.versionMismatch()
        : error;
    });
  return retryOnConflict(attempt, {
    attempts: 8,
    retryable: (error) => error instanceof BookingChanged,
    exhausted: () =>
      DomainError.conflict('concurrent_update', 'The booking or its resource is changing too fast; retry.'),
  });
}

function checkHorizon(b: Pick<Booking, 'resource_id' | 'status' | 'end_at'>, now: Date) {
  if (b.resource_id && isActive(b.status) && beforeScheduleHorizon(b.end_at, now)) {
    throw fieldProblem('booking_in_past', 'end_at', 'An active booking of a resource must end less than 24 hours ago.');
  }
}

const fieldProblem = (code: string, path: string, message: string) => DomainError.invalidField(code, path, message);

function checkTimes(b: Pick<Booking, 'start_at' | 'end_at'>) {
  const problem = timeProblem(b.start_at, b.end_at);
  if (problem) throw fieldProblem('invalid_time_range', 'end_at', problem);
}

/** An active booking of a resource with opening hours lies wholly within them. */
function checkOpeningHours(b: Pick<Booking, 'status' | 'start_at' | 'end_at'>, schedule: Schedule | undefined) {
  const problem = schedule && isActive(b.status) ? outsideHoursProblem(schedule, b) : null;
  if (problem) throw fieldProblem('outside_opening_hours', 'start_at', problem);
}

/** The buffers a booking takes with its slot: its resource's, as its schedule sets them now (none holds no slot). */
const buffersOf = (b: Pick<Booking, 'resource_id' | 'status'>, schedule: Schedule | undefined): Buffers =>
  b.resource_id && schedule && isActive(b.status)
    ? { buffer_before_minutes: schedule.buffer_before_minutes, buffer_after_minutes: schedule.buffer_after_minutes }
    : NO_BUFFERS;

/** A booking belongs to one customer: it may name only a conversation with that customer. */
function checkConversationCustomer(
  conversation: { customer: { id: string; phone: string | null } } | undefined,
  customer: { id?: string; phone?: string },
) {
  const other =
    customer.id !== undefined
      ? conversation?.customer.id !== customer.id
      : conversation?.customer.phone !== customer.phone;
  if (conversation && other)
    throw fieldProblem(
      'conversation_customer_mismatch',
      'conversation_id',
      "The conversation is with another customer than the booking's.",
    );
}

export interface CreateBookingInput {
  customer: { id?: string; phone?: string; name?: string };
  conversation_id?: string;
  service: string;
  resource_id?: string;
  start_at: string;
  end_at: string;
  timezone: string;
  notes?: string;
  metadata?: Booking['metadata'];
  status?: 'pending' | 'confirmed';
  /** Paid for before it is confirmed (null: not even when its service requires it by the tenant's settings). */
  payment?: PaymentRequirement | null;
  /** The API's public base URL, for the payment link's pages. */
  public_base_url?: string;
}

/**
 * What a caller commits with a booking's change, in its transaction (the reminders' answer event and the
 * tap's record): made from the booking as it will be, on each attempt, and written only with a change.
 */
export type WithChange = (after: Booking) => { items: TransactItem[]; events: EventEnvelope[] };

export interface BookingPatch {
  service?: string;
  notes?: string | null;
  metadata?: Booking['metadata'];
  resource_id?: string | null;
  timezone?: string;
  conversation_id?: string | null;
  start_at?: string;
  end_at?: string;
  status?: BookingStatus;
  cancellation_reason?: string;
}

/** The booking rules over the stores they read and write. */
export function bookingService(stores: BookingStores) {
  /** The schedule of the resource a booking holds, if it has one (a booking with no resource holds none). */
  const scheduleOf = (tenantId: string, resourceId: string | null | undefined) =>
    resourceId ? stores.getSchedule(tenantId, resourceId) : Promise.resolve(undefined);

  /** The conversation a booking names, which must exist; its customer is checked against the booking's. */
  async function namedConversation(tenantId: string, conversationId: string | null | undefined) {
    if (!conversationId) return undefined;
    const conversation = await stores.getConversation(tenantId, conversationId);
    if (!conversation) throw fieldProblem('unknown_conversation', 'conversation_id', 'No conversation has this id.');
    return conversation;
  }

  async function createBooking(tenantId: string, input: CreateBookingInput, now: Date): Promise<Booking> {
    const phone = input.customer.phone !== undefined ? requirePhone(input.customer.phone, 'customer.phone') : undefined;
    checkTimes(input);
    const held = {
      resource_id: input.resource_id ?? null,
      status: input.status ?? 'confirmed',
      start_at: input.start_at,
      end_at: input.end_at,
    };
    checkHorizon(held, now);
    // Everything the booking is checked against is read at once: the conversation, the customer (by id, or
    // by phone) and the resource's opening hours. A customer named by phone is created only once the checks
    // pass, so a refused booking creates no customer.
    const [conversation, known, byPhone, schedule] = await Promise.all([
      namedConversation(tenantId, input.conversation_id),
      input.customer.id ? stores.getCustomer(tenantId, input.customer.id) : undefined,
      input.customer.id ? undefined : stores.findCustomerByPhone(tenantId, phone ?? ''),
      scheduleOf(tenantId, input.resource_id),
    ]);
    if (input.customer.id && !known) throw fieldProblem('unknown_customer', 'customer.id', 'No customer has this id.');
    checkConversationCustomer(conversation, { id: known?.id, phone });
    checkOpeningHours(held, schedule);
    const requirement =
      input.payment === null
        ? undefined
        : (input.payment ?? (await stores.payments?.requirementFor(tenantId, input.service)));
    if (requirement && !stores.payments) throw new Error('payments are not available to these booking stores');
    const customer =
      known ??
      (await stores.findOrCreateCustomer(tenantId, phone ?? '', input.customer.name ?? null, now, byPhone ?? null));
    const at = now.toISOString();
    const booking: Booking = {
      id: newId('bkg'),
      tenant_id: tenantId,
      customer: customerView(customer),
      conversation_id: input.conversation_id ?? null,
      service: input.service,
      resource_id: input.resource_id ?? null,
      start_at: input.start_at,
      end_at: input.end_at,
      ...buffersOf(held, schedule),
      timezone: input.timezone,
      notes: input.notes ?? null,
      metadata: input.metadata ?? {},
      status: requirement ? 'pending_payment' : held.status,
      cancellation: null,
      rescheduled_from: null,
      payment: requirement ? { id: newId('pay'), ...requirement } : null,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    // The payment's link is made first (idempotent on the payment's id), and the payment is saved with the booking.
    const linked = requirement
      ? await stores.payments?.forNewBooking(booking, input.public_base_url ?? '', now)
      : undefined;
    try {
      await withRetry(
        () =>
          stores.saveBooking(
            undefined,
            booking,
            [bookingEvent(booking, 'booking.created', now), ...(linked?.events ?? [])],
            now,
            linked?.items,
          ),
        false,
      );
    } catch (error) {
      await linked?.abandon();
      throw error;
    }
    return booking;
  }

  /**
   * Details, a reschedule (emits booking.rescheduled with `rescheduled_from`) and status changes
   * (booking.confirmed / completed / cancelled; no_show is a booking.updated), in one transaction, with
   * what `withChange` adds to it. A patch that changes nothing writes nothing and returns the booking as it is.
   */
  async function updateBooking(
    tenantId: string,
    id: string,
    patch: BookingPatch,
    actor: Sender,
    expectedVersion: number | undefined,
    now: Date,
    current?: Booking,
    withChange?: WithChange,
  ) {
    // The first reads go together: the booking (unless the caller just read it), the conversation it is
    // to name, and the opening hours of a resource it is to move to.
    const [conversation, first, movedToSchedule] = await Promise.all([
      namedConversation(tenantId, patch.conversation_id),
      current ?? stores.getBooking(tenantId, id),
      scheduleOf(tenantId, patch.resource_id),
    ]);
    let known = first;
    return withRetry(async () => {
      // The booking read above serves the first attempt; a retry reads it again.
      const before = known ?? (await stores.getBooking(tenantId, id));
      known = undefined;
      if (!before) throw DomainError.notFound('The booking');
      if (expectedVersion !== undefined && before.version !== expectedVersion) throw DomainError.versionMismatch();
      checkConversationCustomer(conversation, { id: before.customer.id });
      const status = patch.status ?? before.status;
      const problem = transitionProblem(before.status, status);
      if (problem) throw fieldProblem('invalid_status_transition', 'status', problem);
      // The reason is recorded by the cancellation itself: on any other change it would be dropped.
      if (patch.cancellation_reason !== undefined && !(status === 'cancelled' && before.status !== 'cancelled'))
        throw fieldProblem(
          'field_requires_status',
          'cancellation_reason',
          'only when cancelling (`status: cancelled`)',
        );
      const { status: _s, cancellation_reason: _r, ...fields } = patch;
      let candidate: Booking = { ...before, ...fields, status };
      const tooEarly = status !== before.status ? outcomeProblem(status, candidate.start_at, now) : null;
      if (tooEarly) throw fieldProblem('booking_not_started', 'status', tooEarly);
      const timeChanges = diff(before as never, candidate as never, TIME_FIELDS);
      const detailChanges = diff(before as never, candidate as never, DETAIL_FIELDS);
      if (Object.keys(timeChanges).length > 0) {
        if (!isActive(before.status))
          throw fieldProblem('not_reschedulable', 'start_at', `A ${before.status} booking cannot be rescheduled.`);
        checkTimes(candidate);
      }
      if (status === before.status && Object.keys(timeChanges).length === 0 && Object.keys(detailChanges).length === 0)
        return before;
      if (Object.keys(timeChanges).length > 0 || detailChanges.resource_id) {
        checkHorizon(candidate, now);
        const schedule =
          candidate.resource_id === patch.resource_id
            ? movedToSchedule
            : await scheduleOf(tenantId, candidate.resource_id);
        checkOpeningHours(candidate, schedule);
        // A booking takes its resource's buffers anew when it moves; otherwise it keeps its own.
        candidate = { ...candidate, ...buffersOf(candidate, schedule) };
      }
      const at = now.toISOString();
      const after: Booking = {
        ...candidate,
        rescheduled_from:
          Object.keys(timeChanges).length > 0
            ? { start_at: before.start_at, end_at: before.end_at }
            : before.rescheduled_from,
        cancellation:
          status === 'cancelled' && before.status !== 'cancelled'
            ? { reason: patch.cancellation_reason ?? null, at, by: actor }
            : before.cancellation,
        updated_at: at,
        version: before.version + 1,
      };
      const events = [];
      if (Object.keys(timeChanges).length > 0)
        events.push(
          bookingEvent(after, 'booking.rescheduled', now, {
            changes: timeChanges,
            rescheduled_from: after.rescheduled_from,
          }),
        );
      const statusEvent = status !== before.status ? STATUS_EVENTS[status] : undefined;
      const updateChanges = {
        ...detailChanges,
        ...(status !== before.status && !statusEvent ? { status: { from: before.status, to: status } } : {}),
      };
      if (Object.keys(updateChanges).length > 0)
        events.push(bookingEvent(after, 'booking.updated', now, { changes: updateChanges }));
      if (statusEvent)
        events.push(
          bookingEvent(after, statusEvent, now, { changes: { status: { from: before.status, to: status } } }),
        );
      // A cancellation withdraws the payment's link, or refunds a paid one by the tenant's policy, in the same transaction.
      const linked = await stores.payments?.onChange(before, after, now);
      const alongside = withChange?.(after);
      await stores.saveBooking(
        before,
        after,
        [...events, ...(linked?.events ?? []), ...(alongside?.events ?? [])],
        now,
        [...(linked?.items ?? []), ...(alongside?.items ?? [])],
      );
      await linked?.afterCommit();
      return after;
    }, expectedVersion !== undefined);
  }

  /** DELETE: cancelling twice is harmless; a completed (or no-show) booking cannot be cancelled. */
  async function cancelBooking(
    tenantId: string,
    id: string,
    reason: string | undefined,
    actor: Sender,
    expectedVersion: number | undefined,
    now: Date,
    withChange?: WithChange,
  ) {
    const current = await stores.getBooking(tenantId, id);
    if (!current) throw DomainError.notFound('The booking');
    if (expectedVersion !== undefined && current.version !== expectedVersion) throw DomainError.versionMismatch();
    if (current.status === 'cancelled') return current;
    if (!isActive(current.status))
      throw DomainError.conflict('booking_not_cancellable', `A ${current.status} booking cannot be cancelled.`);
    return updateBooking(
      tenantId,
      id,
      { status: 'cancelled', cancellation_reason: reason },
      actor,
      expectedVersion,
      now,
      current,
      withChange,
    );
  }

  return { createBooking, updateBooking, cancelBooking };
}

export const { createBooking, updateBooking, cancelBooking } = bookingService(dynamoStores);
