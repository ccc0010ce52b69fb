import * as z from 'zod/mini';
import { defineContract, named, tenantId, timestamp } from '../platform/api-contract';

export const ReminderPolicy = named(
  'ReminderPolicy',
  z.object({
    tenant_id: tenantId,
    enabled: z.boolean(),
    offsets_minutes: z
      .array(z.int())
      .check(z.meta({ description: 'Minutes before a booking\u2019s start at which a reminder goes, largest first.' })),
    templates: z.array(z.object({ name: z.string(), language: z.string() })).check(
      z.meta({
        description:
          'Approved templates to remind with, one per language: a reminder goes in the customer\u2019s language (detected in their latest analysed message) when one is in it, else in `default_language`. Body parameters are filled in order with the customer\u2019s first name, the local start time and the service; the first three quick-reply buttons answer Confirm, Cancel and Reschedule.',
      }),
    ),
    default_language: z
      .string()
      .check(z.meta({ description: 'Which template of `templates` reminds a customer whose language none is in.' })),
    updated_at: z.nullable(timestamp),
  }),
);

const example = {
  enabled: true,
  offsets_minutes: [1440, 120],
  templates: [{ name: 'appointment_reminder', language: 'en' }],
  default_language: 'en',
};

export const contract = defineContract({
  'reminder-policy-get': {
    operationId: 'getReminderPolicy',
    summary: 'Get the booking reminder policy',
    description: 'When and with which template bookings are reminded (disabled until set).',
    responses: { 200: { description: 'The policy.', body: ReminderPolicy } },
  },
  'reminder-policy-update': {
    operationId: 'updateReminderPolicy',
    summary: 'Change the booking reminder policy',
    description:
      'Changes the fields given. Each pending or confirmed booking gets one reminder per offset before its start, in its conversation (or the customer\u2019s), ' +
      'as the chosen template; exactly once each. Reminders are scheduled when a booking is created or changed: moved when it is ' +
      'rescheduled, dropped when it is cancelled. The customer\u2019s taps act on the booking: Confirm confirms it, Cancel cancels it ' +
      '(within the tenant\u2019s rules), Reschedule offers the nearest free times as a list, and a pick moves the booking.',
    responses: { 200: { description: 'The policy as saved.', body: ReminderPolicy } },
    errors: { 422: ['invalid_reminder_policy'] },
    requestExample: example,
  },
});
