// Public: the stream reaction that settles the customer's copies.
import { untilIndexSettles } from '../platform/db';
import { refreshCustomerCopies } from './service';
import { getCustomer } from './store';

/**
 * Off the table's stream (the stream-reactions worker hands it customer items changed): once the indexes
 * have settled, brings the copies of the customer on their conversations and bookings up to it. The change's
 * own request refreshed the copies the indexes showed then; a conversation or booking written a moment
 * before the change may not have been in them yet. A failed record is retried by the stream.
 */
export async function settleCustomerCopies(item: Record<string, unknown>): Promise<void> {
  if (typeof item.tenant_id !== 'string' || typeof item.id !== 'string') return;
  await untilIndexSettles();
  const customer = await getCustomer(item.tenant_id, item.id);
  if (customer) await refreshCustomerCopies(item.tenant_id, customer);
}
