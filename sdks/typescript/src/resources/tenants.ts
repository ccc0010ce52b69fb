import type { AuthKind, ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { CreateTenantParams, ListTenantsParams, ProvisionedTenant, Tenant, UpdateTenantParams } from '../types.js';

/** Tenants, through the operator API (platform token). */
export class Tenants extends ApiResource {
  protected override readonly auth: AuthKind = 'platform';

  /** Creates a tenant with its first admin user and API key (the key is shown in this answer only). */
  create(params: CreateTenantParams, options?: RequestOptions): Promise<ProvisionedTenant> {
    return this.call('POST', '/platform/tenants', { body: params, options });
  }

  list(params?: ListTenantsParams, options?: RequestOptions): PagedList<Tenant> {
    return this.pagedList('/platform/tenants', params, options);
  }

  get(id: string, options?: RequestOptions): Promise<Tenant> {
    return this.call('GET', path`/platform/tenants/${id}`, { options });
  }

  /** Changes name, plan, limit, status (`suspended`) or time zone. */
  update(id: string, changes: UpdateTenantParams, options?: ConditionalRequestOptions): Promise<Tenant> {
    return this.call('PATCH', path`/platform/tenants/${id}`, { body: changes, options });
  }
}
