import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { ApiKey, CreateApiKeyParams, CreateUserParams, ListApiKeysParams, ListUsersParams, NewApiKey, UpdateUserParams, User } from '../types.js';

/** API keys (admin only). */
export class ApiKeys extends ApiResource {
  list(params?: ListApiKeysParams, options?: RequestOptions): PagedList<ApiKey> {
    return this.pagedList('/api-keys', params, options);
  }

  /** A new key. `key` is in this answer only. */
  create(params: CreateApiKeyParams, options?: RequestOptions): Promise<NewApiKey> {
    return this.call('POST', '/api-keys', { body: params, options });
  }

  /** Revokes a key: its next request fails. */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/api-keys/${id}`, { options });
  }
}

/** The tenant's users. */
export class Users extends ApiResource {
  list(params?: ListUsersParams, options?: RequestOptions): PagedList<User> {
    return this.pagedList('/users', params, options);
  }

  get(id: string, options?: RequestOptions): Promise<User> {
    return this.call('GET', path`/users/${id}`, { options });
  }

  /** Adds a user (admin only); `role` defaults to `agent`. */
  create(params: CreateUserParams, options?: RequestOptions): Promise<User> {
    return this.call('POST', '/users', { body: params, options });
  }

  /** Changes name, role, status or password (admin only). */
  update(id: string, changes: UpdateUserParams, options?: ConditionalRequestOptions): Promise<User> {
    return this.call('PATCH', path`/users/${id}`, { body: changes, options });
  }
}
