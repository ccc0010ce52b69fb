// Public: finding or creating the customer of a conversation.
import { refreshCustomerCopies as refreshBookings } from '../bookings/store';
import { refreshCustomerCopies as refreshConversations } from '../conversations/store';
import { DomainError } from '../platform/domain-error';
import { retryOnConflict } from '../platform/retry';
import { logger } from '../platform/observability';
import { customerView, versionOf, type Customer } from './customer';
import { CustomerChanged, getCustomer, saveCustomer } from './store';

export interface CustomerPatch {
  name?: string | null;
}

/**
 * Changes a customer's name. The customer and its identity's copy change in one transaction; then the
 * copies their conversations and bookings carry are rewritten, until they match the customer as it is
 * read last (so two renames at once end with the copies of the one that won). A rename to the name the
 * customer already has changes nothing, whatever its If-Match, and rewrites any copy a failed earlier
 * attempt left behind: sending a failed request again completes it.
 */
export async function updateCustomer(
  tenantId: string,
  id: string,
  patch: CustomerPatch,
  expectedVersion: number | undefined,
  now: Date,
): Promise<Customer> {
  const { customer: saved, changed } = await retryOnConflict(
    async () => {
      const before = await getCustomer(tenantId, id);
      if (!before) throw DomainError.notFound('The customer');
      if (patch.name === undefined || patch.name === before.name) return { customer: before, changed: false };
      if (expectedVersion !== undefined && expectedVersion !== versionOf(before)) throw DomainError.versionMismatch();
      const after: Customer = {
        ...before,
        name: patch.name,
        version: versionOf(before) + 1,
        updated_at: now.toISOString(),
      };
      try {
        await saveCustomer(before, after);
      } catch (error) {
        if (error instanceof CustomerChanged && expectedVersion !== undefined) throw DomainError.versionMismatch();
        throw error;
      }
      return { customer: after, changed: true };
    },
    {
      attempts: 5,
      retryable: (error) => error instanceof CustomerChanged,
      exhausted: () => DomainError.conflict('concurrent_update', 'The customer is changing too fast; retry.'),
    },
  );
  const refreshed = refreshCustomerCopies(tenantId, saved);
  // A rename that committed is answered as made: a refresh that fails now is left to the settled pass its
  // stream record queues (copies-reaction.ts), rather than a 503 that a client's retry would meet as 412.
  if (!changed) await refreshed;
  else
    await refreshed.catch((error: Error) =>
      logger.warn('customer copies left to the settled pass', {
        tenant_id: tenantId,
        customer_id: id,
        error_name: error.name,
      }),
    );
  return saved;
}

/**
 * Rewrites the copies of a changed customer that their conversations and bookings carry, until they match
 * the customer as it is read last. Each copy is written only over an older version of the customer, so two
 * changes at once end with the copies of the newer, whichever refresh writes last.
 */
export async function refreshCustomerCopies(tenantId: string, saved: Customer): Promise<void> {
  let latest = saved;
  for (let pass = 0; pass < 3; pass++) {
    const view = customerView(latest);
    const version = versionOf(latest);
    await Promise.all([refreshConversations(tenantId, view, version), refreshBookings(tenantId, view, version)]);
    // Another change committed meanwhile: its copies may have landed before these. Bring them to it.
    const current = await getCustomer(tenantId, saved.id);
    if (!current || versionOf(current) === versionOf(latest)) break;
    latest = current;
  }
}
