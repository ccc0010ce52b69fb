import { badRequest, forbidden, unauthorized } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { getTenant } from '../tenants/store';
import { findUserByEmail, tenantsWithEmail } from '../users/store';
import { assertLoginAllowed, recordLoginFailure } from './login-throttle';
import { decoyHash, verifyPassword } from './passwords';
import { LoginBody } from './schemas';
import { startSession } from './sessions';

export const handler = httpHandler('auth-login', { body: LoginBody }, async ({ body, state, event, now }) => {
  const sourceIp = event.requestContext.http.sourceIp;
  await assertLoginAllowed(body.email, sourceIp, now);
  let tenantId = state.tenantId;
  if (!tenantId) {
    const tenants = await tenantsWithEmail(body.email);
    if (tenants.length > 1) throw badRequest('tenant_required', 'This email belongs to several tenants; send X-Tenant-ID to choose one.');
    tenantId = tenants[0];
  }
  const user = tenantId ? await findUserByEmail(tenantId, body.email) : undefined;
  const valid = await verifyPassword(body.password, user?.password_hash ?? (await decoyHash()));
  if (!user || !valid) {
    await recordLoginFailure(body.email, sourceIp, now);
    throw unauthorized('invalid_credentials', 'The email or password is incorrect.');
  }
  if (user.status !== 'active') throw unauthorized('user_disabled', 'This user is disabled.');
  const tenant = await getTenant(user.tenant_id);
  if (tenant?.status !== 'active') throw forbidden('tenant_suspended', 'This tenant is suspended.');
  return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: await startSession(user, now) };
});
