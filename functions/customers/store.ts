import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, getMany, transactionConditionFailed, transactionConflicted } from '../platform/db';
import { tenantPk } from '../platform/keys';
import { retryOnConflict } from '../platform/retry';
import { tableName } from '../platform/config';
import { newId } from '../platform/ids';
import type { Customer } from './customer';

/**
 *   pk TENANT#<t>  sk CUS#<id>                      the customer
 *   pk TENANT#<t>  sk CUSIDENT#<phone>              identity → customer id (unique per tenant)
 */
export const customerKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `CUS#${id}` });
const identityKey = (tenantId: string, phone: string) => ({ pk: tenantPk(tenantId), sk: `CUSIDENT#${phone}` });

const fromItem = ({ pk, sk, ...c }: Record<string, unknown>) => c as unknown as Customer;

export async function getCustomer(tenantId: string, id: string): Promise<Customer | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: customerKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : undefined;
}

/** Finds the customer with this phone, creating them on first contact (safe under concurrency). */
export async function findOrCreateCustomer(
  tenantId: string,
  phone: string,
  name: string | null,
  now: Date,
): Promise<Customer> {
  return retryOnConflict(
    async () => {
      const identity = await db().send(
        new GetCommand({ TableName: tableName('main'), Key: identityKey(tenantId, phone), ConsistentRead: true }),
      );
      const existingId = identity.Item?.customer_id as string | undefined;
      if (existingId) {
        const [item] = await getMany(tableName('main'), [customerKey(tenantId, existingId)]);
        if (item) return fromItem(item);
      }
      const customer: Customer = { id: newId('cus'), tenant_id: tenantId, name, phone, created_at: now.toISOString() };
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName('main'),
                Item: { ...identityKey(tenantId, phone), customer_id: customer.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: tableName('main'), Item: { ...customerKey(tenantId, customer.id), ...customer } } },
          ],
        }),
      );
      return customer;
    },
    {
      attempts: 3,
      // Another request created this customer first: read theirs.
      retryable: (error) => transactionConditionFailed(error) || transactionConflicted(error),
      exhausted: () => new Error('could not resolve customer'),
    },
  );
}
