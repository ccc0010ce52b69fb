import * as z from 'zod/mini';
import { trimmed } from '../platform/validation';
import { messageText } from '../conversations/message-text';
import { phone } from '../customers/schemas';

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

/** Meta sends exactly these three; strict like every other query schema. */
export const VerifyQuery = z.strictObject({
  'hub.mode': z.optional(z.string()),
  'hub.verify_token': z.optional(z.string().check(z.maxLength(256))),
  'hub.challenge': z.optional(z.string().check(z.maxLength(512))),
});

/**
 * Meta's payload: the parts we read are checked for shape and size before any lookup; unknown fields
 * are Meta's to add, so objects are loose.
 */
const text = (max: number) => z.string().check(z.maxLength(max));
const value = z.looseObject({
  metadata: z.optional(
    z.looseObject({
      phone_number_id: z.optional(z.string().check(z.regex(/^\d{1,32}$/))),
      display_phone_number: z.optional(text(32)),
    }),
  ),
  contacts: z.optional(
    z
      .array(
        z.looseObject({
          wa_id: z.optional(text(32)),
          profile: z.optional(z.looseObject({ name: z.optional(text(256)) })),
        }),
      )
      .check(z.maxLength(100)),
  ),
  messages: z.optional(
    z
      .array(
        z.looseObject({
          id: z.optional(text(256)),
          from: z.optional(text(32)),
          timestamp: z.optional(text(20)),
          type: z.optional(text(32)),
          text: z.optional(z.looseObject({ body: z.optional(text(4096)) })),
        }),
      )
      .check(z.maxLength(100)),
  ),
  statuses: z.optional(
    z
      .array(
        z.looseObject({
          id: z.optional(text(256)),
          status: z.optional(text(32)),
          timestamp: z.optional(text(20)),
          recipient_id: z.optional(text(32)),
          biz_opaque_callback_data: z.optional(text(512)),
          errors: z.optional(
            z
              .array(
                z.looseObject({
                  code: z.optional(z.number()),
                  title: z.optional(text(512)),
                  message: z.optional(text(1024)),
                }),
              )
              .check(z.maxLength(10)),
          ),
        }),
      )
      .check(z.maxLength(100)),
  ),
});
export const WebhookBody = z.looseObject({
  object: z.optional(text(64)),
  entry: z.optional(
    z
      .array(
        z.looseObject({
          id: z.optional(text(64)),
          changes: z.optional(
            z.array(z.looseObject({ field: z.optional(text(64)), value: z.optional(value) })).check(z.maxLength(50)),
          ),
        }),
      )
      .check(z.maxLength(50)),
  ),
});
