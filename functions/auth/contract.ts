import * as z from 'zod/mini';
import { defineContract, named, resourceId, role, tenantId, timestamp } from '../platform/api-contract';
import { Tenant } from '../tenants/contract';
import { User } from '../users/contract';

const jwt = z
  .string()
  .check(z.meta({ description: 'An HS256 JWT.', examples: ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.c2lnbmF0dXJl'] }));

export const Tokens = named(
  'Tokens',
  z.object({
    token_type: z.literal('Bearer'),
    access_token: jwt,
    expires_in: z.int().check(z.meta({ description: 'Seconds the access token lives (1800).' })),
    expires_at: timestamp,
    refresh_token: jwt,
    refresh_expires_at: timestamp.check(
      z.meta({ description: 'The session\u2019s absolute end: 30 days after login.' }),
    ),
    session_id: resourceId('ses'),
    tenant_id: tenantId,
    user: User,
  }),
);

export const Me = named(
  'Me',
  z.discriminatedUnion('kind', [
    named('ApiKeyCaller', z.object({ kind: z.literal('api_key'), role, key_id: resourceId('key'), tenant: Tenant })),
    named(
      'UserCaller',
      z.object({
        kind: z.literal('user'),
        role,
        user_id: resourceId('usr'),
        session_id: resourceId('ses'),
        tenant: Tenant,
      }),
    ),
  ]),
);

export const contract = defineContract({
  'auth-login': {
    operationId: 'login',
    summary: 'Log in',
    description:
      'Email and password give an access token (30 minutes) and a refresh token (rotated on each refresh; the session ends 30 days after login). ' +
      'Without X-Tenant-ID the password is checked in every tenant that has the email: 400 `tenant_required` only when it is right in several. ' +
      'At most 10 failed attempts per email and source IP per 15 minutes, and a limited number of attempts per source IP per minute.',
    responses: { 200: { description: 'The tokens and the user.', body: Tokens, headers: ['Cache-Control'] } },
    errors: {
      400: ['tenant_required'],
      401: ['invalid_credentials', 'user_disabled'],
      403: ['tenant_suspended'],
      429: ['login_throttled', 'login_rate_limited'],
    },
    requestExample: { email: 'owner@acme.example', password: 'a long admin passphrase' },
  },
  'auth-refresh': {
    operationId: 'refreshSession',
    summary: 'Refresh the tokens',
    description:
      'Rotates the refresh token. Presenting a refresh token that was already used revokes the whole session.',
    responses: { 200: { description: 'A new token pair.', body: Tokens, headers: ['Cache-Control'] } },
    errors: {
      401: [
        'invalid_token',
        'token_expired',
        'session_revoked',
        'session_expired',
        'user_disabled',
        'refresh_token_reused',
      ],
      403: ['tenant_mismatch', 'tenant_suspended'],
    },
    requestExample: { refresh_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.c2lnbmF0dXJl' },
  },
  'auth-logout': {
    operationId: 'logout',
    summary: 'Log out',
    description:
      'Ends the caller\u2019s session: its access and refresh tokens fail from the next request on. Never rate-limited.',
    responses: { 204: { description: 'The session has ended.' } },
    errors: { 400: ['not_a_session'] },
  },
  'auth-me': {
    operationId: 'getMe',
    summary: 'Who am I',
    description: 'The calling credential, its role and its tenant: handy to check that a key or token works.',
    responses: { 200: { description: 'The credential and its tenant.', body: Me } },
  },
});
