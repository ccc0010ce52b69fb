import * as z from 'zod/mini';
import { instant, trimmed, lazySchema } from '../platform/validation';
import { messageText } from '../conversations/message-text';
import { phone } from '../customers/schemas';
import { ATTACHMENT_TYPES, SANDBOX_MEDIA_MAX_BYTES } from '../media/media';

export const SandboxInboundBody = lazySchema(() =>
  z
    .strictObject({
      from: phone,
      name: z.optional(trimmed(1, 200)),
      text: z.optional(messageText),
      /** A small file the customer sends (base64), stored at once: the sandbox's stand-in for WhatsApp media. */
      media: z.optional(
        z.strictObject({
          type: z.enum(ATTACHMENT_TYPES),
          mime_type: z.string().check(z.minLength(3), z.maxLength(255), z.regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type')),
          data: z
            .string()
            .check(
              z.maxLength(
                Math.ceil(SANDBOX_MEDIA_MAX_BYTES / 3) * 4,
                `at most ${SANDBOX_MEDIA_MAX_BYTES / 1024} KB of file`,
              ),
              z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'the file in base64'),
            ),
          filename: z.optional(trimmed(1, 240)),
          caption: z.optional(trimmed(1, 1024)),
        }),
      ),
      /** Optional provider id, to try duplicate deliveries: the same id is accepted once. */
      provider_message_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
      /**
       * What a tapped quick-reply button or list row carries, as WhatsApp returns it (`button.payload`,
       * `list_reply.id`): a tap on a booking reminder acts on the booking, a moment after the message is
       * stored (functions/reminders/taps.ts). `text` is the button's title.
       */
      payload: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
      /**
       * When the customer wrote, as WhatsApp's `timestamp` says (now when absent): a message of yesterday
       * leaves the 24-hour window closed, to try what happens after it.
       */
      sent_at: z.optional(instant()),
    })
    .check(
      z.refine((b) => b.text !== undefined || b.media !== undefined, {
        message: 'give text, media or both',
        path: ['text'],
      }),
    ),
);

const metaId = z.string().check(z.regex(/^\d{1,32}$/, 'must be the numeric id from Meta'));
export const ConnectWhatsAppBody = lazySchema(() =>
  z
    .strictObject({
      phone_number_id: metaId,
      display_phone_number: z.optional(trimmed(1, 32)),
      access_token: z.string().check(z.minLength(1), z.maxLength(2048)),
      waba_id: z.optional(metaId),
      app_secret: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
      verify_token: z.optional(z.string().check(z.minLength(8), z.maxLength(256))),
    })
    .check(
      z.refine((b) => !b.app_secret || !!b.verify_token, {
        message: 'a verify_token is needed with your own app\u2019s app_secret',
        path: ['verify_token'],
      }),
    ),
);

export const EmbeddedSignupBody = lazySchema(() =>
  z.strictObject({
    code: z.string().check(z.minLength(1), z.maxLength(2048)),
    waba_id: metaId,
    phone_number_id: metaId,
  }),
);

/** Meta sends exactly these three; strict like every other query schema. */
export const VerifyQuery = lazySchema(() =>
  z.strictObject({
    'hub.mode': z.optional(z.string()),
    'hub.verify_token': z.optional(z.string().check(z.maxLength(256))),
    'hub.challenge': z.optional(z.string().check(z.maxLength(512))),
  }),
);
