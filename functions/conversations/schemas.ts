import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { idOf, instant, lazySchema, nonEmptyPatch, readable, trimmed } from '../platform/validation';
import { customerId, customerRef } from '../customers/schemas';
import { CHANNELS, CONVERSATION_STATUSES, PRIORITIES, TAG_PATTERN, UNASSIGNED } from './conversation';
import { outboundText } from './outbound-text';
import { WHATSAPP_LIMITS as L } from './message-kinds';

const tag = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(50), z.regex(TAG_PATTERN, 'must be a slug: letters, digits, - and _'));
const tags = z.array(tag).check(z.maxLength(20, 'at most 20 tags'));
const userId = idOf('usr', 'user');

export const ListConversationsQuery = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    status: z.optional(z.enum(CONVERSATION_STATUSES)),
    tag: z.optional(tag),
    channel: z.optional(z.enum(CHANNELS)),
    customer_id: z.optional(customerId),
    assignee_id: z.optional(
      z.union([userId, z.literal(UNASSIGNED)]).check(
        z.meta({
          description:
            "A user's id: that user's unresolved conversations (not with `status=resolved`). `none`: the " +
            'conversations nobody is assigned to, with any other filter.',
        }),
      ),
    ),
  }),
);

export const CreateConversationBody = lazySchema(() =>
  z.strictObject({
    channel: z.enum(CHANNELS),
    channel_account_id: z.optional(z.string().check(z.regex(/^\d{1,32}$/, 'must be a WhatsApp phone_number_id'))),
    customer: customerRef,
    tags: z.optional(tags),
    priority: z.optional(z.enum(PRIORITIES)),
    assignee_id: z.optional(z.nullable(userId)),
    message: z.optional(z.strictObject({ text: outboundText })),
  }),
);

export const UpdateConversationBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      status: z.optional(z.enum(CONVERSATION_STATUSES)),
      snoozed_until: z.optional(z.nullable(instant())),
      tags: z.optional(tags),
      assignee_id: z.optional(z.nullable(userId)),
      priority: z.optional(z.enum(PRIORITIES)),
      category: z.optional(z.nullable(trimmed(1, 50))),
    }),
  ),
);

/** Text a person reads, within one of WhatsApp's limits (the error names it). */
const limited = (max: number, what: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(max, `at most ${max} characters (WhatsApp's limit for ${what})`),
      ...readable(),
    );
const optionalLimited = (max: number, what: string) => z.optional(z.nullable(limited(max, what)));
const parameterValues = z.array(limited(1024, 'a template parameter')).check(z.maxLength(100));

export const TemplateRef = lazySchema(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(512), z.regex(/^[a-z0-9_]+$/, 'a template name')),
    language: z.string().check(z.regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a WhatsApp language code such as en or en_US')),
    parameters: z._default(
      z.strictObject({
        header: z.optional(parameterValues),
        body: z.optional(parameterValues),
        buttons: z.optional(parameterValues),
      }),
      {},
    ),
  }),
);

/** A file to send: an https `url` WhatsApp fetches (checked like a webhook URL), or an uploaded `media_id`. */
const media = (kind: string, withFilename = false) =>
  z
    .strictObject({
      url: z.optional(z.string().check(z.maxLength(2048), z.regex(/^https:\/\//i, 'must be an https URL'))),
      media_id: z.optional(idOf('med', 'uploaded file')),
      caption: kind === 'audio' ? z.optional(z.null()) : optionalLimited(L.caption, 'a caption'),
      filename: withFilename ? optionalLimited(L.filename, 'a file name') : z.optional(z.null()),
    })
    .check(
      z.refine((m) => (m.url === undefined) !== (m.media_id === undefined), {
        message: 'give exactly one of url and media_id (from POST /media/uploads)',
        path: ['url'],
      }),
    );

const interactive = () =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('button'),
      header: optionalLimited(L.interactiveHeader, 'an interactive header'),
      body: limited(L.interactiveBody, 'an interactive body'),
      footer: optionalLimited(L.interactiveFooter, 'an interactive footer'),
      buttons: z
        .array(
          z.strictObject({
            id: limited(L.replyButtonId, 'a reply button id'),
            title: limited(L.replyButtonTitle, 'a reply button title'),
          }),
        )
        .check(
          z.minLength(1, 'at least 1 button'),
          z.maxLength(L.replyButtons, `at most ${L.replyButtons} reply buttons (WhatsApp's limit)`),
          z.refine((b) => new Set(b.map((x) => x.id)).size === b.length, 'button ids must differ'),
        ),
    }),
    z.strictObject({
      type: z.literal('list'),
      header: optionalLimited(L.interactiveHeader, 'an interactive header'),
      body: limited(L.interactiveBody, 'an interactive body'),
      footer: optionalLimited(L.interactiveFooter, 'an interactive footer'),
      button: limited(L.listButton, 'a list button'),
      sections: z
        .array(
          z.strictObject({
            title: optionalLimited(L.sectionTitle, 'a section title'),
            rows: z
              .array(
                z.strictObject({
                  id: limited(L.listRowId, 'a row id'),
                  title: limited(L.listRowTitle, 'a row title'),
                  description: optionalLimited(L.listRowDescription, 'a row description'),
                }),
              )
              .check(z.minLength(1, 'at least 1 row')),
          }),
        )
        .check(
          z.minLength(1, 'at least 1 section'),
          z.maxLength(L.listSections, `at most ${L.listSections} sections (WhatsApp's limit)`),
          z.refine(
            (sections) => sections.reduce((n, s) => n + s.rows.length, 0) <= L.listRows,
            `at most ${L.listRows} rows in all (WhatsApp's limit)`,
          ),
        ),
    }),
  ]);

const KINDS = ['text', 'template', 'image', 'document', 'audio', 'video', 'interactive'] as const;

/**
 * A message: exactly one of `text`, `template`, `image`, `document`, `audio`, `video` or `interactive`,
 * each within WhatsApp's limits; `fallback_template` goes instead of a text when the window has closed;
 * `send_at` schedules it.
 */
export const SendMessageBody = lazySchema(() =>
  z
    .strictObject({
      text: z.optional(outboundText),
      template: z.optional(TemplateRef),
      image: z.optional(media('image')),
      document: z.optional(media('document', true)),
      audio: z.optional(media('audio')),
      video: z.optional(media('video')),
      interactive: z.optional(interactive()),
      fallback_template: z.optional(TemplateRef),
      send_at: z.optional(instant()),
    })
    .check(
      z.refine((b) => KINDS.filter((k) => b[k] !== undefined).length === 1, {
        message: `give exactly one of ${KINDS.join(', ')}`,
        path: ['text'],
      }),
      z.refine((b) => !b.fallback_template || b.template === undefined, {
        message: 'a template needs no fallback',
        path: ['fallback_template'],
      }),
    ),
);

/** A note is read by the team only, but as text the same rules as a reply apply (readable, not blank). */
export const AddNoteBody = lazySchema(() => z.strictObject({ text: outboundText }));
export const EditNoteBody = lazySchema(() => z.strictObject({ text: outboundText }));
export const ListMessagesQuery = lazySchema(() => z.strictObject(pageQuery));
export const ListNotesQuery = lazySchema(() => z.strictObject(pageQuery));
