import { MessagingError } from '../core/errors.js';
import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { Customer, ListCustomersParams, UpdateCustomerParams } from '../types.js';

export class Customers extends ApiResource {
  /**
   * Customers, newest first; `phone` (E.164) gives the one customer with that number, or none; `name` gives
   * those whose name, or a later word of it, starts with it (case and accents aside), A to Z.
   */
  list(params?: ListCustomersParams, options?: RequestOptions): PagedList<Customer> {
    return this.pagedList('/customers', params, options);
  }

  get(id: string, options?: RequestOptions): Promise<Customer> {
    return this.call('GET', path`/customers/${id}`, { options });
  }

  /**
   * Changes the customer's name (`null` clears it); their conversations and bookings show it too.
   * `ifMatch: customer.version` refuses the change (PreconditionFailedError) if someone changed them meanwhile.
   */
  update(id: string, changes: UpdateCustomerParams, options?: ConditionalRequestOptions): Promise<Customer> {
    return this.call('PATCH', path`/customers/${id}`, { body: changes, options });
  }

  /** The customer with this phone number (E.164, e.g. `+4915112345678`), or `null` when there is none. */
  async findByPhone(phone: string, options?: RequestOptions): Promise<Customer | null> {
    // Without a number the request would be the whole list, and its first customer someone else.
    if (typeof phone !== 'string' || phone.trim() === '') throw new MessagingError('findByPhone needs a phone number.');
    const page = await this.list({ phone }, options).page();
    return page.data[0] ?? null;
  }
}
