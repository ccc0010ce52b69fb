import { MessagingError } from '../core/errors.js';
import type { RequestOptions } from '../core/http.js';
import * as generated from '../generated/resources.js';
import type { Customer } from '../types.js';

/** `client.customers`: the generated operations, and a lookup by phone number. */
export class Customers extends generated.Customers {
  /** The customer with this phone number (E.164, e.g. `+4915112345678`), or `null` when there is none. */
  async findByPhone(phone: string, options?: RequestOptions): Promise<Customer | null> {
    // Without a number the request would be the whole list, and its first customer someone else.
    if (typeof phone !== 'string' || phone.trim() === '') throw new MessagingError('findByPhone needs a phone number.');
    const page = await this.list({ phone }, options).page();
    return page.data[0] ?? null;
  }
}
