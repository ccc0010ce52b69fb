import { etag, httpHandler, ifMatchVersion } from '../platform/http';
import { notFound, unprocessable } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { getTenant, updateTenant } from './store';
import { planLimitProblem } from './tenant';
import { UpdateTenantBody } from './schemas';
import { tenantView } from './views';

export const handler = httpHandler('tenants-update', { body: UpdateTenantBody }, async ({ params, body, now, event }) => {
  const id = (params.id ?? '').toLowerCase();
  const current = isUuid(id) ? await getTenant(id) : undefined;
  if (!current) throw notFound('The tenant');
  const plan = body.plan ?? current.plan;
  // Leaving enterprise drops the custom limit; moving to it requires one.
  const limit = body.rate_limit_per_hour !== undefined ? body.rate_limit_per_hour : plan === 'enterprise' ? current.rate_limit_per_hour : null;
  const problem = planLimitProblem(plan, limit);
  if (problem) throw unprocessable('invalid_plan_limit', problem, [{ path: 'rate_limit_per_hour', message: problem }]);
  // Without If-Match, the version read above guards against a concurrent change in between.
  const expected = ifMatchVersion(event) ?? current.version;
  const tenant = await updateTenant(id, { name: body.name, plan, rate_limit_per_hour: limit, status: body.status }, now.toISOString(), expected);
  return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
});
