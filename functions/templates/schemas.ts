import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { readable } from '../platform/validation';
import {
  MEDIA_HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LANGUAGE,
  TEMPLATE_LIMITS as L,
  TEMPLATE_NAME,
} from './template';

/** Text of a template part: readable, not blank, within Meta's limit for that part. */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max), ...readable());
const httpsUrl = z.string().check(
  z.maxLength(L.url),
  z.refine((u) => /^https:\/\/[^\s/$.?#].[^\s]*$/i.test(u), 'must be an https URL'),
);

const header = z.discriminatedUnion('format', [
  z.strictObject({
    format: z.literal('text'),
    text: text(L.headerText),
    example: z._default(z.nullable(text(L.parameterValue)), null),
  }),
  z.strictObject({ format: z.enum(MEDIA_HEADER_FORMATS), example_url: z._default(z.nullable(httpsUrl), null) }),
]);

const button = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('quick_reply'), text: text(L.buttonText) }),
  z.strictObject({
    type: z.literal('url'),
    text: text(L.buttonText),
    url: httpsUrl,
    example: z._default(z.nullable(httpsUrl), null),
  }),
]);

export const CreateTemplateBody = z.strictObject({
  channel: z.enum(['sandbox', 'whatsapp']),
  channel_account_id: z.optional(z.string().check(z.regex(/^\d{1,32}$/, 'must be a WhatsApp phone_number_id'))),
  name: z
    .string()
    .check(z.minLength(1), z.maxLength(L.name), z.regex(TEMPLATE_NAME, 'lower-case letters, digits and _ only')),
  language: z.string().check(z.regex(TEMPLATE_LANGUAGE, 'a WhatsApp language code such as en, en_US or pt_BR')),
  category: z.enum(TEMPLATE_CATEGORIES),
  header: z._default(z.nullable(header), null),
  body: z.strictObject({
    text: text(L.bodyText),
    examples: z._default(z.array(text(L.parameterValue)).check(z.maxLength(100)), []),
  }),
  footer: z._default(z.nullable(z.strictObject({ text: text(L.footerText) })), null),
  buttons: z._default(z.array(button).check(z.maxLength(L.buttons, `at most ${L.buttons} buttons`)), []),
});

export const ListTemplatesQuery = z.strictObject(pageQuery);

export const SyncTemplatesBody = z.strictObject({
  channel_account_id: z.optional(z.string().check(z.regex(/^\d{1,32}$/, 'must be a WhatsApp phone_number_id'))),
});
