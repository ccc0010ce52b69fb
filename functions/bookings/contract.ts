// Public: the API schemas of bookings, used by the event catalog.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { CustomerRef } from '../customers/contract';
import { Message } from '../conversations/contract';
import { BOOKING_STATUSES, MAX_BUFFER_MINUTES } from './booking';
import { MAX_DATE_OVERRIDES, MAX_HOURS_PER_DAY, WEEKDAYS } from './schedule';

/** A half-open stretch of time: it ends as the next may start. */
const TimeSpan = named('TimeSpan', z.object({ start_at: timestamp, end_at: timestamp }));

const bufferMinutes = (description: string) =>
  z.int().check(z.gte(0), z.lte(MAX_BUFFER_MINUTES), z.meta({ examples: [0], description }));

export const Booking = named(
  'Booking',
  z.object({
    id: resourceId('bkg'),
    tenant_id: tenantId,
    customer: CustomerRef,
    conversation_id: z.nullable(resourceId('conv')),
    service: z.string().check(z.meta({ examples: ['Dental cleaning'] })),
    resource_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'A chair, a room, a person: two active bookings of one resource never overlap.' })),
    start_at: timestamp,
    end_at: timestamp,
    buffer_before_minutes: bufferMinutes(
      'Minutes its resource is kept free before it: the resource\u2019s buffer when the booking took or last ' +
        'moved its slot (0 without a resource or schedule).',
    ),
    buffer_after_minutes: bufferMinutes('Minutes its resource is kept free after it, likewise.'),
    timezone: z.string().check(z.meta({ examples: ['Europe/Berlin'] })),
    notes: z.nullable(z.string()),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    status: z.enum(BOOKING_STATUSES),
    cancellation: z.nullable(
      z.object({
        reason: z.nullable(z.string()),
        at: timestamp,
        by: z.object({
          type: z.enum(['customer', 'user', 'api_key', 'system']).check(
            z.meta({
              description:
                '`system`: the platform acted (a payment cancelled it: `payment_expired`, `payment_failed`; or a reminder\u2019s answer).',
            }),
          ),
          id: z.string(),
        }),
      }),
    ),
    rescheduled_from: z.nullable(TimeSpan),
    payment: z.nullable(
      z
        .object({
          id: resourceId('pay'),
          purpose: z.enum(['deposit', 'full']),
          amount: z.int().check(z.meta({ description: 'In the currency\u2019s minor units.' })),
          currency: z.string().check(z.meta({ examples: ['EUR'] })),
        })
        .check(
          z.meta({
            description:
              'The payment the booking waits for (`pending_payment`) or was paid with; its state is the payment\u2019s (`GET /payments/{id}`).',
          }),
        ),
    ),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

const params = { id: resourceId('bkg') };

export const Availability = named(
  'Availability',
  z.object({
    resource_id: z.string().check(z.meta({ examples: ['chair-1'] })),
    from: timestamp,
    to: timestamp,
    buffer_before_minutes: bufferMinutes(
      'The buffer a booking made now would keep free before it (its schedule\u2019s).',
    ),
    buffer_after_minutes: bufferMinutes('The buffer a booking made now would keep free after it.'),
    busy: z
      .array(TimeSpan)
      .check(
        z.meta({ description: "The resource's active bookings in the window, clipped to it, touching ones merged." }),
      ),
    held: z.array(TimeSpan).check(
      z.meta({
        description:
          'The time those bookings hold: with the buffers each keeps before and after it (the same as `busy` ' +
          'when none has buffers), clipped and merged likewise.',
      }),
    ),
    closed: z.array(TimeSpan).check(
      z.meta({
        description:
          'The time in the window outside the resource\u2019s opening hours (`/schedules`), in order; empty for a ' +
          'resource with no schedule, which is open at all times.',
      }),
    ),
    free: z.array(TimeSpan).check(z.meta({ description: 'The rest of the window: open and not held, in order.' })),
    slots: z.nullable(z.array(TimeSpan)).check(
      z.meta({
        description:
          'With `duration_minutes`: the slots of that length, starting every `step_minutes` from `from`, that lie ' +
          'wholly in free time (so within opening hours), leave room for the buffers before and after them, and ' +
          'have not started yet. Otherwise null.',
      }),
    ),
  }),
);

const Hours = named(
  'OpeningHours',
  z.object({
    start: z.string().check(z.meta({ examples: ['09:00'], description: 'Wall-clock time, `HH:MM`.' })),
    end: z
      .string()
      .check(z.meta({ examples: ['17:00'], description: 'Wall-clock time, `HH:MM`; `24:00` is midnight.' })),
  }),
);

export const Schedule = named(
  'Schedule',
  z.object({
    resource_id: z.string().check(z.meta({ examples: ['chair-1'] })),
    tenant_id: tenantId,
    timezone: z.string().check(z.meta({ examples: ['Europe/Berlin'] })),
    weekly_hours: z
      .object(
        Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(Hours)])) as Record<
          (typeof WEEKDAYS)[number],
          z.ZodMiniArray<typeof Hours>
        >,
      )
      .check(z.meta({ description: `Each day\u2019s hours in order (at most ${MAX_HOURS_PER_DAY}); \`[]\`: closed.` })),
    date_overrides: z
      .array(z.object({ date: z.string().check(z.meta({ examples: ['2026-12-24'] })), hours: z.array(Hours) }))
      .check(
        z.meta({
          description: `Dates with other hours than their weekday\u2019s, by date (at most ${MAX_DATE_OVERRIDES}).`,
        }),
      ),
    buffer_before_minutes: bufferMinutes('Minutes the resource is kept free before each booking made from now on.'),
    buffer_after_minutes: bufferMinutes('Minutes the resource is kept free after each booking made from now on.'),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

const scheduleParams = {
  resource_id: z.string().check(z.meta({ examples: ['chair-1'], description: 'The resource the schedule is of.' })),
};

const scheduleExample = {
  resource_id: 'chair-1',
  timezone: 'Europe/Berlin',
  weekly_hours: {
    mon: [
      { start: '09:00', end: '12:30' },
      { start: '13:30', end: '18:00' },
    ],
    tue: [{ start: '09:00', end: '18:00' }],
    wed: [{ start: '09:00', end: '18:00' }],
    thu: [{ start: '09:00', end: '20:00' }],
    fri: [{ start: '09:00', end: '16:00' }],
  },
  date_overrides: [
    { date: '2026-12-24', hours: [{ start: '09:00', end: '12:00' }] },
    { date: '2026-12-25', hours: [] },
  ],
  buffer_after_minutes: 10,
};

export const contract = defineContract({
  'bookings-list': {
    operationId: 'listBookings',
    summary: 'List bookings',
    description: 'Latest start first; `from` and `to` bound the start time.',
    responses: { 200: { description: 'A page of bookings.', body: page('BookingList', Booking) } },
  },
  'bookings-create': {
    operationId: 'createBooking',
    summary: 'Create a booking',
    description:
      'Created `confirmed` unless `status: "pending"`. Times take any offset and are stored in UTC; a booking lasts at most 24 hours. ' +
      'Two active bookings of one `resource_id` never overlap (half-open intervals): the second is 409 `booking_conflict`.',
    responses: { 201: { description: 'The booking.', body: Booking, headers: ['ETag', 'Location'] } },
    errors: {
      409: ['booking_conflict', 'concurrent_update'],
      422: [
        'unsupported_currency',
        'invalid_amount',
        'invalid_hold',
        'payment_provider_not_connected',
        'payment_without_conversation',
        'stripe_credentials_invalid',
        'stripe_request_refused',
        'invalid_phone',
        'invalid_time_range',
        'unknown_conversation',
        'conversation_customer_mismatch',
        'unknown_customer',
        'booking_in_past',
        'outside_opening_hours',
      ],
    },
    requestExample: {
      customer: { phone: '+4915112345678', name: 'Maria' },
      service: 'Dental cleaning',
      resource_id: 'chair-1',
      start_at: '2026-12-01T10:00:00+01:00',
      end_at: '2026-12-01T10:45:00+01:00',
      timezone: 'Europe/Berlin',
      metadata: { source: 'whatsapp' },
    },
  },
  'bookings-availability': {
    operationId: 'getAvailability',
    summary: "A resource's free time",
    description:
      'The busy and free time of one `resource_id` between `from` and `to` (at most 31 days; the schedule keeps the last ' +
      '24 hours and the future, so an earlier `from` is answered from 24 hours ago), and with ' +
      '`duration_minutes` the slots still bookable. Pending and confirmed bookings hold time; cancelled, completed ' +
      'and no-show ones do not. A slot listed here can still be taken before it is booked: the booking is then 409 ' +
      '`booking_conflict`.',
    responses: { 200: { description: "The resource's busy time, free time and slots.", body: Availability } },
  },
  'bookings-get': {
    operationId: 'getBooking',
    summary: 'Get a booking',
    description: 'The booking, with its cancellation and reschedule history.',
    params,
    responses: { 200: { description: 'The booking.', body: Booking, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'bookings-update': {
    operationId: 'updateBooking',
    summary: 'Update a booking',
    description:
      'Details, a reschedule (new `start_at`/`end_at`, recorded in `rescheduled_from`) and status changes: pending → confirmed or cancelled; ' +
      'confirmed → completed, cancelled or no_show (the first and last once it has started); the last three are final.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The updated booking.', body: Booking, headers: ['ETag'] } },
    errors: {
      404: ['not_found'],
      409: ['booking_conflict', 'concurrent_update'],
      422: [
        'invalid_status_transition',
        'booking_not_started',
        'field_requires_status',
        'not_reschedulable',
        'invalid_time_range',
        'booking_in_past',
        'outside_opening_hours',
        'unknown_conversation',
        'conversation_customer_mismatch',
      ],
    },
    requestExample: { start_at: '2026-12-01T14:00:00+01:00', end_at: '2026-12-01T14:45:00+01:00' },
  },
  'schedules-list': {
    operationId: 'listSchedules',
    summary: 'List schedules',
    description: 'The opening hours of each resource that has them, A to Z by resource.',
    responses: { 200: { description: 'A page of schedules.', body: page('ScheduleList', Schedule) } },
  },
  'schedules-create': {
    operationId: 'createSchedule',
    summary: 'Set a resource\u2019s opening hours',
    description:
      'Hours for each weekday and for particular dates, as wall-clock times in `timezone` (so 09:00 stays 09:00 across ' +
      'daylight-saving changes). Once a resource has a schedule, an active booking of it must lie wholly within its ' +
      'hours (422 `outside_opening_hours`), and availability counts the rest as `closed`; bookings made before keep ' +
      'their time. With buffers, each booking made or moved from then on also keeps the resource free for that long ' +
      'before and after it (409 `booking_conflict` when another booking is in that time). A resource without a ' +
      'schedule is open at all times.',
    responses: { 201: { description: 'The schedule.', body: Schedule, headers: ['ETag', 'Location'] } },
    errors: { 409: ['schedule_exists'] },
    requestExample: scheduleExample,
  },
  'schedules-get': {
    operationId: 'getSchedule',
    summary: 'Get a resource\u2019s opening hours',
    description: 'The schedule of one resource; 404 when it has none (it is open at all times).',
    params: scheduleParams,
    responses: { 200: { description: 'The schedule.', body: Schedule, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'schedules-update': {
    operationId: 'updateSchedule',
    summary: 'Change a resource\u2019s opening hours',
    description:
      'Changes what is sent: each weekday in `weekly_hours` (the days left out keep their hours; `[]` closes one), ' +
      '`date_overrides` as the whole list, `timezone`, the buffers. Bookings already made keep their time and their ' +
      'buffers.',
    params: scheduleParams,
    ifMatch: true,
    responses: { 200: { description: 'The schedule as changed.', body: Schedule, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
    requestExample: { date_overrides: [{ date: '2026-12-31', hours: [{ start: '10:00', end: '14:00' }] }] },
  },
  'schedules-delete': {
    operationId: 'deleteSchedule',
    summary: 'Remove a resource\u2019s opening hours',
    description: 'The resource is open at all times again.',
    params: scheduleParams,
    ifMatch: true,
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: ['not_found'] },
  },
  'bookings-notify': {
    operationId: 'notifyBookingCustomer',
    summary: 'Tell the customer about their booking',
    description:
      'Sends the booking\u2019s customer a message saying where it stands, in the booking\u2019s conversation (else ' +
      'the customer\u2019s most recently active one), in ' +
      '`language` (default: the tenant\u2019s), with the time in the booking\u2019s zone: confirmed ("Hi Maria, your ' +
      'Haircut is confirmed for Tuesday 24 November at 15:00. See you then!"), moved (with the time it had), requested ' +
      '(pending) or cancelled. Answered 202 with the message `queued`, as `POST /conversations/{id}/messages` is; it ' +
      'is sent as any message is, with its events. A booking whose customer has no conversation, or one that is ' +
      'over (completed, no-show), is 422.',
    params,
    responses: { 202: { description: 'The queued message.', body: Message, headers: ['Location'] } },
    errors: {
      404: ['not_found'],
      409: ['concurrent_update'],
      422: ['booking_without_conversation', 'nothing_to_notify', 'outside_service_window'],
    },
  },
  'bookings-cancel': {
    operationId: 'cancelBooking',
    summary: 'Cancel a booking',
    description:
      'The record stays, `cancelled`, with `cancellation`. Cancelling twice is harmless; a completed or no-show booking is 409.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The cancelled booking.', body: Booking, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['booking_not_cancellable', 'concurrent_update'] },
  },
});
