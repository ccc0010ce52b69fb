import type { RouteDef } from '../../catalog/routes';
import { authenticatePlatform, authenticateTenant } from '../auth/authenticate';
import { roleAllows } from '../auth/principal';
import { badRequest, forbidden } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { logger } from '../platform/observability';
import { header, stateOf, type HttpMiddleware, type HttpRequest } from './request-state';

/** X-Tenant-ID is checked before anything else, then the credential, then the role. */
export const access = (route: RouteDef): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const state = stateOf(request);
    const tenantHeader = header(request.event, 'x-tenant-id');
    if (route.auth === 'tenant' && tenantHeader === undefined) {
      throw badRequest('tenant_header_missing', 'The X-Tenant-ID header is required.');
    }
    if (route.auth !== 'platform' && tenantHeader !== undefined) {
      if (!isUuid(tenantHeader.trim()))
        throw badRequest('tenant_header_invalid', 'The X-Tenant-ID header must be a UUID.');
      state.tenantId = tenantHeader.trim().toLowerCase();
      logger.appendKeys({ tenant_id: state.tenantId });
    }
    const authorization = header(request.event, 'authorization');
    if (route.auth === 'platform') {
      await authenticatePlatform(authorization);
      state.principal = { kind: 'platform' };
    } else if (route.auth === 'tenant' && state.tenantId) {
      const principal = await authenticateTenant(authorization, state.tenantId, state.now);
      if (!roleAllows(principal.role, route.role)) {
        throw forbidden('insufficient_role', `This action needs the ${route.role} role.`);
      }
      state.principal = principal;
    }
  },
});
