// Public: reminder answers and their payloads, for the channels' inbound paths.
/** Booking reminders: the tenant's policy, when each reminder falls due, and the one-tap answers. Pure. */
import type { Booking } from '../bookings/booking';

export interface ReminderPolicy {
  tenant_id: string;
  enabled: boolean;
  /** Minutes before a booking's start at which a reminder goes (for example 1440 and 120). */
  offsets_minutes: number[];
  /**
   * The approved templates to remind with, one per language: the customer's language picks one, and
   * `default_language` when none is in theirs.
   */
  templates: { name: string; language: string }[];
  default_language: string;
  updated_at: string | null;
}

export const REMINDER_POLICY_FIELDS = [
  'tenant_id',
  'enabled',
  'offsets_minutes',
  'templates',
  'default_language',
  'updated_at',
] as const satisfies readonly (keyof ReminderPolicy)[];

export const defaultPolicy = (tenantId: string): ReminderPolicy => ({
  tenant_id: tenantId,
  enabled: false,
  offsets_minutes: [1440, 120],
  templates: [],
  default_language: 'en',
  updated_at: null,
});

export const MAX_OFFSETS = 5;
/** From five minutes to a week before the start. */
export const OFFSET_RANGE = { min: 5, max: 7 * 1440 } as const;

/** A language's base: `pt` of `pt_BR` and `pt-BR`, lower case. */
const baseLanguage = (language: string) => language.split(/[-_]/)[0]!.toLowerCase();

/**
 * The template a policy reminds a customer with: the one in the customer's language (exactly, else one of
 * its base, `pt_BR` for `pt`), else the default language's, else the first.
 */
export function reminderTemplate(p: Pick<ReminderPolicy, 'templates' | 'default_language'>, language?: string | null) {
  const inLanguage = (wanted: string) =>
    p.templates.find((t) => t.language === wanted) ??
    p.templates.find((t) => baseLanguage(t.language) === baseLanguage(wanted));
  return (language ? inLanguage(language) : undefined) ?? inLanguage(p.default_language) ?? p.templates[0];
}

export interface ReminderBooking {
  id: string;
  status: string;
  start_at: string;
}

/**
 * How late a reminder may still go: the stream that schedules it and the scheduler each take a moment, so
 * a reminder due moments ago is still sent; one long past (a booking made after its reminder time) is not.
 */
export const REMINDER_GRACE_MS = 10 * 60_000;

/**
 * The reminders a booking should have now: one per offset not long past (REMINDER_GRACE_MS) and before
 * its start, while it is pending or confirmed.
 */
export function wantedReminders(
  booking: ReminderBooking,
  policy: ReminderPolicy,
  now: Date,
): { offset_minutes: number; due_at: string }[] {
  if (!policy.enabled || !reminderTemplate(policy) || !['pending', 'confirmed'].includes(booking.status)) return [];
  return [...new Set(policy.offsets_minutes)]
    .map((offset) => ({ offset_minutes: offset, due: Date.parse(booking.start_at) - offset * 60_000 }))
    .filter((r) => r.due > now.getTime() - REMINDER_GRACE_MS && Date.parse(booking.start_at) > now.getTime())
    .map((r) => ({ offset_minutes: r.offset_minutes, due_at: new Date(r.due).toISOString() }));
}

/** The customer's answers: the reminder template's quick replies, in this order (Confirm, Cancel, Reschedule). */
export const REMINDER_ANSWERS = ['confirm', 'cancel', 'reschedule'] as const;
export type ReminderAnswer = (typeof REMINDER_ANSWERS)[number];

/** What a quick-reply tap carries back (Meta returns it as `button.payload`): the booking and the answer. */
export const answerPayload = (bookingId: string, answer: ReminderAnswer) => `reminder:${bookingId}:${answer}`;
/** What a pick from the reschedule list carries back (`list_reply.id`): the booking and the new start. */
export const slotPayload = (bookingId: string, startAt: string) => `reschedule:${bookingId}:${Date.parse(startAt)}`;

export type Tap =
  { kind: 'answer'; bookingId: string; answer: ReminderAnswer } | { kind: 'slot'; bookingId: string; startAt: string };

/** A tap's payload, if it is one of ours. */
export function tapOf(payload: string | null | undefined): Tap | undefined {
  const answer = /^reminder:(bkg_[0-9A-HJKMNP-TV-Z]{26}):(confirm|cancel|reschedule)$/.exec(payload ?? '');
  if (answer) return { kind: 'answer', bookingId: answer[1]!, answer: answer[2] as ReminderAnswer };
  const slot = /^reschedule:(bkg_[0-9A-HJKMNP-TV-Z]{26}):(\d{10,15})$/.exec(payload ?? '');
  if (slot) return { kind: 'slot', bookingId: slot[1]!, startAt: new Date(Number(slot[2])).toISOString() };
  return undefined;
}

/** A payload kept with its message for the stream reaction to act on: only a tap of ours. */
export const tapPayloadOf = (payload: string | null | undefined): string | undefined =>
  tapOf(payload) ? (payload ?? undefined) : undefined;

/** The booking's start as the customer reads it, in the booking's time zone. */
export function localStart(startAt: string, timezone: string, language: string): string {
  try {
    return new Intl.DateTimeFormat(language.replace('_', '-'), {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: timezone,
    }).format(new Date(startAt));
  } catch {
    return startAt;
  }
}

/**
 * The reply to a Confirm tap: the booking as it stands once the tap is answered. A tap on an older reminder
 * of a booking that was cancelled since, or has passed, is not told it is confirmed.
 */
export function confirmReply(booking: Pick<Booking, 'status' | 'start_at' | 'timezone'>): string {
  const when = localStart(booking.start_at, booking.timezone, 'en');
  switch (booking.status) {
    case 'confirmed':
      return `Thank you: your booking on ${when} is confirmed.`;
    case 'cancelled':
      return `Your booking on ${when} was cancelled. Write to us to book again.`;
    case 'pending_payment':
      return `Your booking on ${when} is held until its deposit is paid.`;
    case 'completed':
    case 'no_show':
      return `Your booking on ${when} has passed. Write to us to book again.`;
    case 'pending':
      return `Your booking on ${when} is not confirmed yet; we will get back to you.`;
  }
}

/**
 * Values for a reminder template's body parameters, in order: the customer's first name, the local start
 * time, the service. A template that takes fewer gets the first ones.
 */
export const reminderParameters = (
  count: number,
  booking: { customer: { name: string | null }; start_at: string; timezone: string; service: string },
  language: string,
): string[] =>
  [
    booking.customer.name?.split(/\s+/)[0] || 'there',
    localStart(booking.start_at, booking.timezone, language),
    booking.service,
  ].slice(0, count);
