import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import {
  dataMap,
  idOf,
  instant as instantSchema,
  nonEmptyPatch,
  timezone as timezoneSchema,
  trimmed,
  wholeNumberParam,
  lazySchema,
} from '../platform/validation';
import { customerId, customerRef } from '../customers/schemas';
import { LANGUAGES } from '../platform/languages';
import { BOOKING_STATUSES } from './booking';
import { PaymentRequirementBody } from '../payments/schemas';

const instant = instantSchema();
/** Finite numbers in DynamoDB's range, with room to spare. */
const metadataNumber = z
  .number()
  .check(
    z.refine(
      (n) => Number.isFinite(n) && (n === 0 || (Math.abs(n) <= 1e15 && Math.abs(n) >= 1e-9)),
      'numbers must be between 1e-9 and 1e15 in size',
    ),
  );
const timezone = timezoneSchema();
/** A resource is also named in paths (`/schedules/{resource_id}`), where `.` and `..` would be resolved away. */
export const resourceId = z.string().check(
  z.regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits and _ . : - only (1 to 100)'),
  z.refine((id: string) => !/^\.+$/.test(id), 'must not be only dots: a path cannot name `.` or `..`'),
);
const conversationId = idOf('conv', 'conversation');
const metadata = dataMap(
  z.string().check(z.minLength(1), z.maxLength(40)),
  z.union([z.string().check(z.maxLength(500)), metadataNumber, z.boolean(), z.null()]),
).check(
  z.refine((m) => Object.keys(m).length <= 20, 'at most 20 keys'),
  z.meta({ maxProperties: 20 }),
);

export const CreateBookingBody = lazySchema(() =>
  z.strictObject({
    customer: customerRef,
    conversation_id: z.optional(conversationId),
    service: trimmed(1, 200),
    resource_id: z.optional(resourceId),
    start_at: instant,
    end_at: instant,
    timezone,
    notes: z.optional(trimmed(0, 2000)),
    metadata: z.optional(metadata),
    status: z.optional(z.enum(['pending', 'confirmed'])),
    payment: z.optional(
      z.nullable(PaymentRequirementBody).check(
        z.meta({
          description:
            'A deposit or the full price to be paid through a link: the booking waits in `pending_payment`, holding its slot, until ' +
            'it is paid (then `confirmed`) or the link expires (then `cancelled`, `payment_expired`). Default: the tenant\u2019s ' +
            'requirement for the service (payment settings); `null`: none.',
        }),
      ),
    ),
    send_payment_link: z.optional(
      z
        .boolean()
        .check(z.meta({ description: 'Send the payment link into the booking\u2019s conversation as a message.' })),
    ),
  }),
);

export const UpdateBookingBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      service: z.optional(trimmed(1, 200)),
      notes: z.optional(z.nullable(trimmed(0, 2000))),
      metadata: z.optional(metadata),
      resource_id: z.optional(z.nullable(resourceId)),
      timezone: z.optional(timezone),
      conversation_id: z.optional(z.nullable(conversationId)),
      start_at: z.optional(instant),
      end_at: z.optional(instant),
      status: z.optional(z.enum(BOOKING_STATUSES)),
      cancellation_reason: z.optional(trimmed(1, 500)),
    }),
  ),
);

export const ListBookingsQuery = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    status: z.optional(z.enum(BOOKING_STATUSES)),
    customer_id: z.optional(customerId),
    from: z.optional(instant),
    to: z.optional(instant),
  }),
);

export const CancelBookingQuery = lazySchema(() => z.strictObject({ reason: z.optional(trimmed(1, 500)) }));

export const NotifyBookingQuery = lazySchema(() =>
  z.strictObject({
    language: z.optional(
      z.enum(LANGUAGES).check(z.meta({ description: 'The language to write in (default: the tenant\u2019s).' })),
    ),
  }),
);

export const AvailabilityQuery = lazySchema(() =>
  z.strictObject({
    resource_id: resourceId,
    from: instant,
    to: instantSchema().check(z.meta({ description: 'The end of the window: at most 31 days after `from`.' })),
    duration_minutes: z.optional(
      wholeNumberParam(5, 1440).check(
        z.meta({ description: 'Also list the slots of this length that are still free (5 to 1440 minutes).' }),
      ),
    ),
    step_minutes: z.optional(
      wholeNumberParam(5, 1440).check(
        z.meta({ description: 'How far apart slots start, counted from `from` (default: `duration_minutes`).' }),
      ),
    ),
    reschedule_booking_id: z.optional(
      idOf('bkg', 'booking').check(
        z.meta({ description: 'A booking being rescheduled: its own time counts as free, so it can move within it.' }),
      ),
    ),
  }),
);
