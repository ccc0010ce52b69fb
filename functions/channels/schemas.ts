import * as z from 'zod/mini';
import { trimmed } from '../platform/validation';
import { messageText, phone } from '../conversations/schemas';

export const SandboxInboundBody = z.strictObject({
  from: phone,
  name: z.optional(trimmed(1, 200)),
  text: messageText,
  /** Optional provider id, to try duplicate deliveries: the same id is accepted once. */
  provider_message_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});

export const ConnectWhatsAppBody = z.strictObject({
  phone_number_id: z.string().check(z.regex(/^\d{1,32}$/, 'must be the numeric phone_number_id from Meta')),
  display_phone_number: z.optional(trimmed(1, 32)),
  access_token: z.string().check(z.minLength(1), z.maxLength(2048)),
  app_secret: z.string().check(z.minLength(1), z.maxLength(256)),
  verify_token: z.string().check(z.minLength(8), z.maxLength(256)),
});

export const VerifyQuery = z.object({
  'hub.mode': z.optional(z.string()),
  'hub.verify_token': z.optional(z.string().check(z.maxLength(256))),
  'hub.challenge': z.optional(z.string().check(z.maxLength(512))),
});

/** Meta's payload is checked loosely: unknown fields are Meta's to add. */
export const WebhookBody = z.looseObject({ object: z.optional(z.string()), entry: z.optional(z.array(z.looseObject({}))) });
