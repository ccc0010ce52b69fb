import { ApiError, forbidden, unauthorized } from '../platform/errors';
import { clientIp } from '../http/client-ip';
import { httpHandler } from '../http/handler';
import { getTenant } from '../tenants/store';
import { findUserByEmail, tenantsWithEmail } from '../users/store';
import type { User } from '../users/user';
import { takeLoginAttempt } from './login-throttle';
import { decoyHash, verifyPassword } from './passwords';
import { LoginBody } from './schemas';
import { startSession } from './session-service';

const invalid = () => unauthorized('invalid_credentials', 'The email or password is incorrect.');

/**
 * Without X-Tenant-ID, the password is checked in every tenant that has this email, so the answer
 * never reveals whether an email exists: 401 unless the password is right somewhere, and 400
 * tenant_required only when it is right in several.
 */
export const handler = httpHandler('auth-login', { body: LoginBody }, async ({ body, state, event, now }) => {
  const attempt = await takeLoginAttempt(body.email, clientIp(event), now);
  const tenantIds = state.tenantId ? [state.tenantId] : await tenantsWithEmail(body.email);
  const candidates = (await Promise.all(tenantIds.map((t) => findUserByEmail(t, body.email)))).filter(
    (u): u is User => !!u,
  );
  const matches: User[] = [];
  for (const user of candidates) if (await verifyPassword(body.password, user.password_hash)) matches.push(user);
  if (candidates.length === 0) await verifyPassword(body.password, await decoyHash());
  // A tenant where the user is disabled is no choice: offered only when there is no other.
  const active = matches.filter((u) => u.status === 'active');
  const choices = active.length > 0 ? active : matches;
  const [user] = choices;
  if (!user) throw invalid();
  if (choices.length > 1) throw await tenantRequired(choices);
  await attempt.succeeded();
  if (user.status !== 'active') throw unauthorized('user_disabled', 'This user is disabled.');
  const tenant = await getTenant(user.tenant_id);
  if (tenant?.status !== 'active') throw forbidden('tenant_suspended', 'This tenant is suspended.');
  return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: await startSession(user, now) };
});

/** Names the tenants only to a caller who proved the password in each, so a sign-in page can offer a choice. */
async function tenantRequired(matches: User[]): Promise<ApiError> {
  const tenants = await Promise.all(matches.map((u) => getTenant(u.tenant_id)));
  return new ApiError(400, 'tenant_required', 'This login exists in several tenants; send X-Tenant-ID to choose one.', {
    members: { tenants: matches.map((u, i) => ({ id: u.tenant_id, name: tenants[i]?.name ?? u.tenant_id })) },
  });
}
