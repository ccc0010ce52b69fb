// Public: the template API schemas, for the events contract.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { MEDIA_HEADER_FORMATS, TEMPLATE_CATEGORIES, TEMPLATE_LIMITS as L, TEMPLATE_STATUSES } from './template';

export const Template = named(
  'Template',
  z.object({
    id: resourceId('tpl'),
    tenant_id: tenantId,
    channel: z.enum(['sandbox', 'whatsapp']),
    channel_account_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'The WhatsApp number whose Business Account holds it; null on the sandbox.' })),
    name: z.string(),
    language: z.string().check(z.meta({ examples: ['en_US'] })),
    category: z.enum(TEMPLATE_CATEGORIES),
    header: z.nullable(
      z.union([
        z.object({ format: z.literal('text'), text: z.string(), example: z.nullable(z.string()) }),
        z.object({ format: z.enum(MEDIA_HEADER_FORMATS), example_url: z.nullable(z.string()) }),
      ]),
    ),
    body: z.object({
      text: z.string().check(z.meta({ description: 'With numbered parameters: `{{1}}`, `{{2}}` …' })),
      examples: z
        .array(z.string())
        .check(z.meta({ description: 'One example value per parameter, for Meta\u2019s review.' })),
    }),
    footer: z.nullable(z.object({ text: z.string() })),
    buttons: z.array(
      z.union([
        z.object({ type: z.literal('quick_reply'), text: z.string() }),
        z.object({ type: z.literal('url'), text: z.string(), url: z.string(), example: z.nullable(z.string()) }),
      ]),
    ),
    status: z.enum(TEMPLATE_STATUSES).check(
      z.meta({
        description:
          'Meta\u2019s review: `pending`, then `approved` or `rejected`; Meta may later `pause` or `disable` an approved one. Only approved templates can be sent.',
      }),
    ),
    rejection_reason: z
      .nullable(z.string())
      .check(z.meta({ description: 'Meta\u2019s reason for a rejection, pause or disable (`INVALID_FORMAT` …).' })),
    provider_template_id: z.nullable(z.string()).check(z.meta({ description: 'Meta\u2019s id of the template.' })),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

const SyncResult = named(
  'TemplateSyncResult',
  z.object({
    imported: z.int().check(z.meta({ description: 'Templates made elsewhere (WhatsApp Manager), now listed here.' })),
    updated: z.int().check(z.meta({ description: 'Templates whose status changed (each with its event).' })),
    unchanged: z.int(),
  }),
);

export const contract = defineContract({
  'templates-list': {
    operationId: 'listTemplates',
    summary: 'List message templates',
    description:
      'The tenant\u2019s WhatsApp message templates (and sandbox ones), newest first, with their review status.',
    responses: { 200: { description: 'A page of templates.', body: page('TemplateList', Template) } },
    errors: { 400: ['invalid_query'] },
  },
  'templates-create': {
    operationId: 'createTemplate',
    summary: 'Create a message template',
    description:
      'Submits a template for review: to Meta, through the WhatsApp Business Account of the number (`channel_account_id`, or the ' +
      'tenant\u2019s only one), or to the sandbox, which approves it after a few seconds (and rejects one whose name contains ' +
      '`reject`). Only templates may start a conversation or be sent after the 24-hour window. Meta\u2019s limits are checked ' +
      `first: body up to ${L.bodyText} characters with numbered parameters and one example each, header text ${L.headerText} ` +
      `(one parameter), footer ${L.footerText}, up to ${L.buttons} buttons (${L.urlButtons} URL buttons), button text ${L.buttonText}. ` +
      'The status follows Meta\u2019s review (`template.status_updated`). Sent again after a 503, a create that Meta had ' +
      'already accepted adopts Meta\u2019s template; a template of that name with other content at Meta is `template_exists`.',
    responses: { 201: { description: 'The template, in review.', body: Template, headers: ['ETag', 'Location'] } },
    errors: {
      409: ['template_exists'],
      422: ['invalid_template', 'channel_not_connected', 'whatsapp_account_unknown', 'template_refused_by_meta'],
    },
    requestExample: {
      channel: 'sandbox',
      name: 'appointment_reminder',
      language: 'en',
      category: 'utility',
      body: {
        text: 'Hi {{1}}, this is a reminder of your appointment on {{2}}. See you soon!',
        examples: ['Maria', 'Tuesday 10:00'],
      },
      footer: { text: 'Reply to change it' },
      buttons: [
        { type: 'quick_reply', text: 'Confirm' },
        { type: 'quick_reply', text: 'Cancel' },
        { type: 'quick_reply', text: 'Reschedule' },
      ],
    },
  },
  'templates-get': {
    operationId: 'getTemplate',
    summary: 'Get a message template',
    description: 'The template, its review status and any rejection reason.',
    params: { id: resourceId('tpl') },
    responses: { 200: { description: 'The template.', body: Template, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'templates-delete': {
    operationId: 'deleteTemplate',
    summary: 'Delete a message template',
    description:
      'Deletes the template here and from the WhatsApp Business Account (Meta keeps its name blocked for 30 days).',
    params: { id: resourceId('tpl') },
    responses: { 204: { description: 'Deleted.' } },
    errors: {
      404: ['not_found'],
      409: ['concurrent_update'],
      422: ['template_refused_by_meta', 'whatsapp_account_unknown'],
    },
  },
  'templates-sync': {
    operationId: 'syncTemplates',
    summary: 'Sync templates from Meta',
    description:
      'Reads the number\u2019s WhatsApp Business Account templates from Meta: statuses and reasons of known ones move (with ' +
      'their events, should a status webhook have been missed), and templates made in WhatsApp Manager are added.',
    responses: { 200: { description: 'What changed.', body: SyncResult } },
    errors: { 422: ['channel_not_connected', 'whatsapp_account_unknown', 'template_refused_by_meta'] },
    requestExample: { channel_account_id: '106540352242922' },
  },
});
