// Public: the API schemas of tenants, reused by other contracts.
import * as z from 'zod/mini';
import { defineContract, named, page, tenantId, timestamp, version } from '../platform/api-contract';
import { NewApiKey } from '../api-keys/contract';
import { User } from '../users/contract';
import { LANGUAGES } from '../ai/taxonomy';
import { PLANS } from './tenant';

export const Tenant = named(
  'Tenant',
  z.object({
    id: tenantId,
    name: z.string(),
    plan: z.enum(PLANS),
    rate_limit_per_hour: z
      .int()
      .check(
        z.meta({ description: 'The effective hourly limit: the plan\u2019s, or the enterprise tenant\u2019s own.' }),
      ),
    status: z.enum(['active', 'suspended']),
    timezone: z
      .string()
      .check(
        z.meta({ description: 'IANA zone in which the AI reads dates in messages.', examples: ['Europe/Berlin'] }),
      ),
    default_language: z.enum(LANGUAGES).check(
      z.meta({
        description: 'ISO 639-1: the language the AI assumes for a customer message too short to tell (default `en`).',
      }),
    ),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

export const ProvisionedTenant = named(
  'ProvisionedTenant',
  z.object({ tenant: Tenant, admin_user: User, api_key: NewApiKey }),
);

const params = { id: tenantId };

export const contract = defineContract({
  'tenants-create': {
    operationId: 'createTenant',
    summary: 'Create a tenant',
    description:
      'Creates the tenant, its first admin and its first API key in one transaction. The key is in this response only.',
    responses: {
      201: {
        description: 'The tenant, its admin and its API key.',
        body: ProvisionedTenant,
        headers: ['ETag', 'Location', 'Cache-Control'],
      },
    },
    errors: { 422: ['invalid_plan_limit'] },
    requestExample: {
      name: 'Acme Dental',
      plan: 'free',
      timezone: 'Europe/Berlin',
      default_language: 'de',
      admin: { email: 'owner@acme.example', password: 'a long admin passphrase', name: 'Olive Owner' },
    },
  },
  'tenants-list': {
    operationId: 'listTenants',
    summary: 'List tenants',
    description: 'Every tenant, newest first.',
    responses: { 200: { description: 'A page of tenants, newest first.', body: page('TenantList', Tenant) } },
  },
  'tenants-get': {
    operationId: 'getTenant',
    summary: 'Get a tenant',
    description: 'The tenant, with its effective hourly limit.',
    params,
    responses: { 200: { description: 'The tenant.', body: Tenant, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'tenants-update': {
    operationId: 'updateTenant',
    summary: 'Update a tenant',
    description:
      'Changes the name, plan, limit (enterprise only, and required there), status, time zone or default language. ' +
      '`status: suspended` makes every credential of the tenant fail with 403 from the next request on.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The updated tenant.', body: Tenant, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['concurrent_update'], 422: ['invalid_plan_limit'] },
    requestExample: { plan: 'enterprise', rate_limit_per_hour: 50000 },
  },
  'settings-get': {
    operationId: 'getSettings',
    summary: 'Get the tenant\u2019s settings',
    description: 'The caller\u2019s own tenant: its name, plan, time zone and default language.',
    responses: { 200: { description: 'The tenant.', body: Tenant, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'settings-update': {
    operationId: 'updateSettings',
    summary: 'Update the tenant\u2019s settings',
    description:
      'Admins change their own tenant\u2019s name, time zone (in which the dashboard, reminders and the AI say times) ' +
      'or default language. The plan, its limit and the status are the operator\u2019s.',
    ifMatch: true,
    responses: { 200: { description: 'The updated tenant.', body: Tenant, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['concurrent_update'] },
    requestExample: { timezone: 'Europe/Berlin', default_language: 'de' },
  },
});
