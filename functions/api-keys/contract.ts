// Public: the API schemas of keys, shown in other features' responses.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, role, tenantId, timestamp } from '../platform/api-contract';

const apiKeyFields = {
  id: resourceId('key'),
  tenant_id: tenantId,
  name: z.string(),
  prefix: z.string().check(
    z.meta({
      pattern: '^sk_[0-9A-Za-z]{8}$',
      description: 'The first characters of the key, to recognise it.',
      examples: ['sk_Tubkx4xw'],
    }),
  ),
  role,
  created_at: timestamp,
  created_by: z.string().check(z.meta({ description: 'The user or API key that created it (`usr_…` or `key_…`).' })),
  last_used_at: z.nullable(timestamp).check(z.meta({ description: 'Refreshed at most once a minute.' })),
};

export const ApiKey = named('ApiKey', z.object(apiKeyFields));

/** The one response that carries the key itself. */
export const NewApiKey = named(
  'NewApiKey',
  z.object({
    ...apiKeyFields,
    key: z.string().check(
      z.meta({
        pattern: '^sk_[0-9A-Za-z]{40}$',
        description: 'The key: shown in this response only.',
        examples: ['sk_Tubkx4xwfUYB4YsN84BPl3myPc5X5ITvoK1Ff1g8'],
      }),
    ),
  }),
);

export const contract = defineContract({
  'api-keys-create': {
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'The key is in this response only (a retry with the same Idempotency-Key within 24 h replays it). Only its SHA-256 is stored. ' +
      'A tenant holds at most 50 keys.',
    responses: {
      201: {
        description: 'The new key, with the key itself.',
        body: NewApiKey,
        headers: ['Location', 'Cache-Control'],
      },
    },
    errors: { 409: ['concurrent_update'], 422: ['too_many_api_keys'] },
    requestExample: { name: 'Backend integration', role: 'admin' },
  },
  'api-keys-list': {
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: 'Prefix, name, role and `last_used_at` of each key; never the key.',
    responses: { 200: { description: 'A page of keys, newest first.', body: page('ApiKeyList', ApiKey) } },
  },
  'api-keys-revoke': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Effective on the next request: authentication reads the key on every request, without a cache.',
    params: { id: resourceId('key') },
    responses: { 204: { description: 'Revoked.' } },
    errors: { 404: ['not_found'] },
  },
});
