import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { PLACEHOLDERS } from './saved-reply';

export const SavedReply = named(
  'SavedReply',
  z.object({
    id: resourceId('rpl'),
    tenant_id: tenantId,
    shortcut: z.string().check(z.meta({ description: 'Unique in the tenant, lower case; typed after a `/`.' })),
    title: z.string(),
    text: z.string().check(z.meta({ description: 'With its placeholders as written (`{{customer.first_name}}`).' })),
    created_by: z
      .object({ type: z.enum(['user', 'api_key']), id: z.string() })
      .check(z.meta({ description: 'Who saved it: a user (dashboard) or an API key.' })),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

const RenderedSavedReply = named(
  'RenderedSavedReply',
  z.object({
    text: z
      .string()
      .check(z.meta({ description: 'The text with its placeholders filled in and trimmed, ready to send.' })),
    missing: z.array(z.enum(PLACEHOLDERS)).check(
      z.meta({
        description:
          'Placeholders with no value and no fallback, left empty in `text` (the customer has no name, an API key has no agent name).',
      }),
    ),
  }),
);

const placeholders = PLACEHOLDERS.map((p) => `\`{{${p}}}\``).join(', ');

export const contract = defineContract({
  'saved-replies-list': {
    operationId: 'listSavedReplies',
    summary: 'List saved replies',
    description:
      'The team\u2019s saved replies (canned responses), A to Z by shortcut. `shortcut` lists those whose shortcut ' +
      'starts with it, as a composer does while `/gr…` is typed.',
    responses: { 200: { description: 'A page of saved replies.', body: page('SavedReplyList', SavedReply) } },
    errors: { 400: ['invalid_query'] },
  },
  'saved-replies-create': {
    operationId: 'createSavedReply',
    summary: 'Save a reply',
    description:
      `Text the team sends often, under a shortcut unique in the tenant. Its text may use placeholders, ${placeholders}, ` +
      'each with an optional fallback (`{{customer.first_name | there}}`); an unknown one is 422. ' +
      'Any user or API key may save, change and delete the team\u2019s replies.',
    responses: { 201: { description: 'The saved reply.', body: SavedReply, headers: ['ETag', 'Location'] } },
    errors: { 409: ['shortcut_taken', 'concurrent_update'] },
    requestExample: {
      shortcut: 'hours',
      title: 'Opening hours',
      text: 'Hi {{customer.first_name | there}}, we are open Monday to Friday, 9:00 to 18:00. {{agent.first_name}}',
    },
  },
  'saved-replies-get': {
    operationId: 'getSavedReply',
    summary: 'Get a saved reply',
    description: 'The saved reply, its placeholders as written.',
    params: { id: resourceId('rpl') },
    responses: { 200: { description: 'The saved reply.', body: SavedReply, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'saved-replies-update': {
    operationId: 'updateSavedReply',
    summary: 'Change a saved reply',
    description:
      'Changes its shortcut, title or text (the values sent; the same values again change nothing). ' +
      'A shortcut another reply has is 409 `shortcut_taken`.',
    params: { id: resourceId('rpl') },
    ifMatch: true,
    responses: { 200: { description: 'The saved reply as changed.', body: SavedReply, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['shortcut_taken', 'concurrent_update'] },
    requestExample: { text: 'Hi {{customer.first_name | there}}, we are open every day from 9:00 to 20:00.' },
  },
  'saved-replies-delete': {
    operationId: 'deleteSavedReply',
    summary: 'Delete a saved reply',
    description: 'Its shortcut is free again at once.',
    params: { id: resourceId('rpl') },
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: ['not_found'], 409: ['concurrent_update'] },
  },
  'saved-replies-render': {
    operationId: 'renderSavedReply',
    summary: 'Fill in a saved reply',
    description:
      'The reply\u2019s text with its placeholders filled in for one conversation: `customer.*` from its customer, ' +
      '`agent.*` from the user asking (an API key has no name). Nothing is sent: send `text` as a message, ' +
      'changed or not (a text that long names make longer than 4,096 characters, or that is empty, is 422 there).',
    params: { id: resourceId('rpl') },
    responses: { 200: { description: 'The filled-in text.', body: RenderedSavedReply } },
    errors: { 404: ['not_found'] },
    requestExample: { conversation_id: 'conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W' },
  },
});
