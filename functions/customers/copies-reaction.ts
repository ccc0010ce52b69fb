// Public: the stream reaction that settles the customer's copies, once the indexes show the change.
import { refreshCustomerCopies } from './service';
import { getCustomer } from './store';

/** The pass over a changed customer's copies, run once the indexes have settled. */
export interface CustomerCopiesPass {
  kind: 'customer-copies';
  tenant_id: string;
  customer_id: string;
}

/**
 * Off the table's stream (the stream-reactions worker hands it customer items changed): the pass to run
 * once the indexes have settled. The change's own request refreshed the copies the indexes showed then;
 * a conversation or booking written a moment before the change may not have been in them yet.
 */
export const customerCopiesPass = (item: Record<string, unknown>): CustomerCopiesPass | undefined =>
  typeof item.tenant_id === 'string' && typeof item.id === 'string'
    ? { kind: 'customer-copies', tenant_id: item.tenant_id, customer_id: item.id }
    : undefined;

/** Brings the customer's copies on their conversations and bookings up to it. A failed pass throws (retried). */
export async function settleCustomerCopies(pass: CustomerCopiesPass): Promise<void> {
  const customer = await getCustomer(pass.tenant_id, pass.customer_id);
  if (customer) await refreshCustomerCopies(pass.tenant_id, customer);
}
