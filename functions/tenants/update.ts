import { etag, httpHandler, ifMatchVersion } from '../http/handler';
import { ApiError, notFound, preconditionFailed, unprocessable } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { getTenant, updateTenant } from './store';
import { planLimitProblem } from './tenant';
import { UpdateTenantBody } from './schemas';
import { tenantView } from './views';

export const handler = httpHandler('tenants-update', { body: UpdateTenantBody }, async ({ params, body, now, event }) => {
  const id = (params.id ?? '').toLowerCase();
  const ifMatch = ifMatchVersion(event);
  // The plan/limit rule depends on the current record: read, check, write conditionally on that
  // version, and re-read if another change got in between (unless the caller pinned If-Match).
  for (let attempt = 1; ; attempt++) {
    const current = isUuid(id) ? await getTenant(id) : undefined;
    if (!current) throw notFound('The tenant');
    if (ifMatch !== undefined && ifMatch !== current.version) throw preconditionFailed();
    const plan = body.plan ?? current.plan;
    // Leaving enterprise drops the custom limit; moving to it requires one.
    const limit = body.rate_limit_per_hour !== undefined ? body.rate_limit_per_hour : plan === 'enterprise' ? current.rate_limit_per_hour : null;
    const problem = planLimitProblem(plan, limit);
    if (problem) throw unprocessable('invalid_plan_limit', problem, [{ path: 'rate_limit_per_hour', message: problem }]);
    try {
      const tenant = await updateTenant(id, { name: body.name, plan, rate_limit_per_hour: limit, status: body.status, timezone: body.timezone }, now.toISOString(), current.version);
      return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412) || ifMatch !== undefined || attempt >= 5) throw error;
    }
  }
});
