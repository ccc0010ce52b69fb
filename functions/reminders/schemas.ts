import * as z from 'zod/mini';
import { nonEmptyPatch } from '../platform/validation';
import { MAX_OFFSETS, OFFSET_RANGE } from './reminder';

const language = z.string().check(z.regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a WhatsApp language code such as en or en_US'));

export const ReminderPolicyPatch = nonEmptyPatch(
  z.strictObject({
    enabled: z.optional(z.boolean()),
    offsets_minutes: z.optional(
      z
        .array(z.int().check(z.minimum(OFFSET_RANGE.min), z.maximum(OFFSET_RANGE.max)))
        .check(z.minLength(1), z.maxLength(MAX_OFFSETS, `at most ${MAX_OFFSETS} reminders per booking`)),
    ),
    templates: z.optional(
      z
        .array(
          z.strictObject({
            name: z.string().check(z.minLength(1), z.maxLength(512), z.regex(/^[a-z0-9_]+$/, 'a template name')),
            language,
          }),
        )
        .check(z.maxLength(20)),
    ),
    default_language: z.optional(language),
  }),
);
