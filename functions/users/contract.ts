// Public: the API schemas of users, reused by other contracts.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, role, tenantId, timestamp, version } from '../platform/api-contract';

export const User = named(
  'User',
  z.object({
    id: resourceId('usr'),
    tenant_id: tenantId,
    email: z.email().check(z.meta({ examples: ['owner@acme.example'] })),
    name: z.nullable(z.string()),
    role,
    status: z.enum(['active', 'disabled']),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

const params = { id: resourceId('usr') };

export const contract = defineContract({
  'users-create': {
    operationId: 'createUser',
    summary: 'Create a user',
    description: 'Adds a user who can log in to this tenant. `role` defaults to `agent`.',
    responses: { 201: { description: 'The new user.', body: User, headers: ['ETag', 'Location'] } },
    errors: { 409: ['email_taken'] },
    requestExample: {
      email: 'agent@acme.example',
      password: 'a long agent passphrase',
      name: 'Ada Agent',
      role: 'agent',
    },
  },
  'users-list': {
    operationId: 'listUsers',
    summary: 'List users',
    description: 'The tenant\u2019s users, newest first, without password hashes.',
    responses: { 200: { description: 'A page of users, newest first.', body: page('UserList', User) } },
  },
  'users-get': {
    operationId: 'getUser',
    summary: 'Get a user',
    description: 'A user of the caller\u2019s tenant; another tenant\u2019s user is 404.',
    params,
    responses: { 200: { description: 'The user.', body: User, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'users-update': {
    operationId: 'updateUser',
    summary: 'Update a user',
    description:
      'Changes the name, role, status or password. A new password or `status: disabled` ends the user\u2019s sessions; ' +
      '`status: disabled` also unassigns their unresolved conversations, moments later (each with `conversation.updated`). ' +
      'The last active admin cannot be demoted or disabled, and nobody can demote or disable themselves.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The updated user.', body: User, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['last_admin'], 422: ['cannot_demote_self'] },
    requestExample: { role: 'admin' },
  },
});
