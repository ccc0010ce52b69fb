// Public: conversations and bookings add customer writes to their transactions.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { queryPage, tenantItemsPage } from '../platform/pagination';
import { db, getMany, transactionConditionFailed, transactionConflicted, type TransactItem } from '../platform/db';
import { tenantPk } from '../platform/keys';
import { retryOnConflict } from '../platform/retry';
import { tableName } from '../platform/config';
import { newId } from '../platform/ids';
import { CUSTOMER_REF_FIELDS, inOrder } from '../platform/fields';
import {
  LATER_WORDS_SEARCHED,
  copyVersionOf,
  laterWordForms,
  nameSearchForm,
  withCopyVersion,
  type Customer,
  type CustomerRef,
} from './customer';

/**
 *   pk TENANT#<t>  sk CUS#<id>                      the customer
 *   pk TENANT#<t>  sk CUSIDENT#<phone>              identity: `customer_id` and a copy of the customer (rewritten
 *                                                   with it), so finding a customer by phone is one read
 *   pk TENANT#<t>  sk CUSIDENT#wa:<bsuid>           the same for Meta's business-scoped user id (WhatsApp users
 *                                                   who withhold their phone number); a customer has one or both
 * Customer ids are ULIDs, so one descending Query on `CUS#` lists them newest first.
 * A named customer is also in gsi1: gsi1pk `<t>#CUSNAME`, gsi1sk `<name's search form>\u0001<id>`, so the
 * customers whose name starts with some text are one ascending Query (A to Z). So that a later word finds
 * them too ("lopez" for Maria Lopez), each later word (up to four) has an entry of its own:
 *   pk TENANT#<t>  sk CUSWORD#<id>#<n>          gsi1 with the rest of the name from word n+1, a copy of the
 *                                               customer, and the forms of the entries before it (`before_<i>`),
 *                                               which the search checks so a customer is listed once
 * The customer item's `name_words` counts them (absent on customers stored before: `ops reindex-customers`).
 */
/**
 * Conversations and bookings carry a copy of their customer, and beside it, in this attribute, the
 * customer version it was taken at: a refresh writes a copy only over an older one (`customer_version <
 * :v`), so copies of concurrent changes end at the newest, in whatever order they land.
 */
export const COPY_VERSION = 'customer_version';

/** The attributes that store `copy`'s version beside it (none for a copy of unknown version). */
export const copyVersionAttributes = (copy: CustomerRef) => {
  const version = copyVersionOf(copy);
  return version === undefined ? {} : { [COPY_VERSION]: version };
};

/** The customer copy an item carries in `copy`, with the version stored beside it. */
export const storedCopy = (copy: unknown, item: Record<string, unknown>): CustomerRef =>
  withCopyVersion(
    inOrder<CustomerRef>((copy ?? {}) as Record<string, unknown>, CUSTOMER_REF_FIELDS),
    item[COPY_VERSION],
  );

/** Whether a stored copy is at least at `version` (else a refresh rewrites it). */
export const copyIsCurrent = (copy: CustomerRef, version: number) => (copyVersionOf(copy) ?? 0) >= version;

export const customerKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `CUS#${id}` });
export const customerIdentityKey = (tenantId: string, phone: string) => ({
  pk: tenantPk(tenantId),
  sk: `CUSIDENT#${phone}`,
});

export const whatsAppIdentityKey = (tenantId: string, userId: string) => ({
  pk: tenantPk(tenantId),
  sk: `CUSIDENT#wa:${userId}`,
});

/** The identity items of a customer: its phone's and its BSUID's, those it has. */
export const identityKeysOf = (c: Customer) => [
  ...(c.phone ? [customerIdentityKey(c.tenant_id, c.phone)] : []),
  ...(c.whatsapp_user_id ? [whatsAppIdentityKey(c.tenant_id, c.whatsapp_user_id)] : []),
];

const nameIndexPartition = (tenantId: string) => `${tenantId}#CUSNAME`;
/** Ends the name in the sort key: below every character a name keeps, so "Jo" sorts before "Jo Smith". */
const NAME_END = '\u0001';

/** A named customer's keys in the name index (none for a customer without a name). */
export const nameIndexKeys = (c: Customer) =>
  c.name ? { gsi1pk: nameIndexPartition(c.tenant_id), gsi1sk: `${nameSearchForm(c.name)}${NAME_END}${c.id}` } : {};

const nameWordKey = (tenantId: string, id: string, n: number) => ({
  pk: tenantPk(tenantId),
  sk: `CUSWORD#${id}#${n}`,
});

/** The customer's entries in the name index for its later words (none without a name). */
export function nameWordItems(c: Customer) {
  if (!c.name) return [];
  const later = laterWordForms(c.name);
  const forms = [nameSearchForm(c.name), ...later];
  return later.map((form, i) => ({
    ...nameWordKey(c.tenant_id, c.id, i + 1),
    gsi1pk: nameIndexPartition(c.tenant_id),
    gsi1sk: `${form}${NAME_END}${c.id}`,
    ...Object.fromEntries(forms.slice(0, i + 1).map((f, j) => [`before_${j}`, f])),
    customer: c,
  }));
}

/** The customer's item: key, name index keys, how many later-word entries it has, and its fields. */
const customerItem = (c: Customer) => ({
  ...customerKey(c.tenant_id, c.id),
  ...nameIndexKeys(c),
  ...(c.name ? { name_words: nameWordItems(c).length } : {}),
  ...c,
});

export const customerFromItem = ({ pk, sk, gsi1pk, gsi1sk, name_words, ...c }: Record<string, unknown>) =>
  c as unknown as Customer;

/**
 * Writes that make the customer's later-word entries those of `customer`: a new customer's are put; an
 * existing one's (`replacing`) are put, and every slot past them deleted, whatever was stored (a name
 * written by an older version, or by fewer rules, leaves nothing behind).
 */
function nameWordWrites(customer: Customer, replacing: boolean): TransactItem[] {
  const table = tableName('main');
  const puts = nameWordItems(customer);
  return [
    ...puts.map((Item) => ({ Put: { TableName: table, Item } })),
    ...(replacing
      ? Array.from({ length: LATER_WORDS_SEARCHED - puts.length }, (_, i) => ({
          Delete: { TableName: table, Key: nameWordKey(customer.tenant_id, customer.id, puts.length + i + 1) },
        }))
      : []),
  ];
}

export async function getCustomer(tenantId: string, id: string): Promise<Customer | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: customerKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? customerFromItem(out.Item) : undefined;
}

/** The customer an identity item names: its copy, or (for an item written before it held one) undefined. */
export const customerFromIdentity = (item: Record<string, unknown> | undefined): Customer | undefined =>
  item?.customer ? (item.customer as Customer) : undefined;

/** A new customer known by a phone number, or on WhatsApp by a BSUID (and maybe a username), or both. */
export const newCustomer = (
  tenantId: string,
  phone: string | null,
  name: string | null,
  now: Date,
  whatsApp: { userId: string | null; username: string | null } = { userId: null, username: null },
): Customer => ({
  id: newId('cus'),
  tenant_id: tenantId,
  name,
  phone,
  whatsapp_user_id: whatsApp.userId,
  whatsapp_username: whatsApp.username,
  created_at: now.toISOString(),
  updated_at: now.toISOString(),
  version: 1,
});

/** Another write changed the customer since it was read. */
export class CustomerChanged extends Error {
  constructor() {
    super('customer changed concurrently');
    this.name = 'CustomerChanged';
  }
}

/** The customer's item, on condition that it is still at the version `before` was read at. */
function customerPutAt(before: Customer, after: Customer): TransactItem {
  return {
    Put: {
      TableName: tableName('main'),
      Item: customerItem(after),
      ConditionExpression:
        before.version === undefined ? 'attribute_exists(pk) AND attribute_not_exists(version)' : 'version = :v',
      ExpressionAttributeValues: before.version === undefined ? undefined : { ':v': before.version },
    },
  };
}

/** An identity item naming `customer`, with its copy; `owner`: the customer it must name now (none: it must not exist). */
function identityPut(customer: Customer, key: { pk: string; sk: string }, owner: string | null): TransactItem {
  return {
    Put: {
      TableName: tableName('main'),
      Item: { ...key, customer_id: customer.id, customer },
      ConditionExpression: owner ? 'customer_id = :owner' : 'attribute_not_exists(pk)',
      ExpressionAttributeValues: owner ? { ':owner': owner } : undefined,
    },
  };
}

/**
 * Writes a changed customer and its identities' copies in one transaction, if the customer is still at the
 * version read (customers stored before versions have none: then, if it still has none).
 */
export async function saveCustomer(before: Customer, after: Customer): Promise<void> {
  await runCustomerTransaction([
    customerPutAt(before, after),
    ...identityKeysOf(after).map((key) => identityPut(after, key, after.id)),
    ...(before.name === after.name ? [] : nameWordWrites(after, true)),
  ]);
}

async function runCustomerTransaction(items: TransactItem[]): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new CustomerChanged();
    throw error;
  }
}

/**
 * Gives a customer an identity it lacked (a phone number or a BSUID), in one transaction with the customer
 * at the version read: the new identity item must be free, or, when `previous` is given, still name that
 * other customer, which loses it (its own item changes beside it). Every copy the two carry (identities,
 * name entries) is rewritten. `extra` joins the transaction. CustomerChanged when anything moved meanwhile.
 */
export async function linkIdentity(
  before: Customer,
  after: Customer,
  previous?: { before: Customer; after: Customer },
  extra: TransactItem[] = [],
): Promise<void> {
  const owned = new Set(identityKeysOf(before).map((k) => k.sk));
  const taken = new Set(previous ? identityKeysOf(previous.before).map((k) => k.sk) : []);
  const copies = (c: Customer) => nameWordItems(c).map((Item) => ({ Put: { TableName: tableName('main'), Item } }));
  await runCustomerTransaction([
    customerPutAt(before, after),
    ...identityKeysOf(after).map((key) =>
      identityPut(after, key, owned.has(key.sk) ? after.id : taken.has(key.sk) ? (previous?.before.id ?? null) : null),
    ),
    ...copies(after),
    ...(previous
      ? [
          customerPutAt(previous.before, previous.after),
          ...identityKeysOf(previous.after).map((key) => identityPut(previous.after, key, previous.after.id)),
          ...copies(previous.after),
        ]
      : []),
    ...extra,
  ]);
}

/**
 * Puts a customer stored before the name search, or before its later words were searched, into the name
 * index as it is now: its index keys, `name_words` and its later-word entries, in one transaction on
 * condition that it is still the version read (cancelled if a rename meanwhile has indexed it).
 */
export function reindexCustomerName(customer: Customer) {
  const item = customerItem(customer);
  return db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName('main'),
            Key: customerKey(customer.tenant_id, customer.id),
            UpdateExpression: 'SET gsi1pk = :gpk, gsi1sk = :gsk, name_words = :words',
            ConditionExpression:
              customer.version === undefined
                ? '#name = :name AND attribute_not_exists(version)'
                : '#name = :name AND version = :v',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: {
              ':gpk': item.gsi1pk,
              ':gsk': item.gsi1sk,
              ':words': item.name_words,
              ':name': customer.name,
              ...(customer.version === undefined ? {} : { ':v': customer.version }),
            },
          },
        },
        ...nameWordWrites(customer, true),
      ],
    }),
  );
}

/**
 * The writes that create a customer, for the caller's transaction: the identities are conditional, so a
 * concurrent first contact with the same phone (or BSUID) fails the transaction (the caller reads theirs and retries).
 */
export function customerPuts(customer: Customer): TransactItem[] {
  return [
    ...identityKeysOf(customer).map((key) => identityPut(customer, key, null)),
    { Put: { TableName: tableName('main'), Item: customerItem(customer) } },
    ...nameWordWrites(customer, false),
  ];
}

/** The customer behind an identity item; an item from before identities held a copy costs one more read. */
export async function customerOfIdentity(
  tenantId: string,
  item: Record<string, unknown> | undefined,
): Promise<Customer | undefined> {
  const copy = customerFromIdentity(item);
  const id = item?.customer_id;
  if (copy || typeof id !== 'string') return copy;
  const [customer] = await getMany(tableName('main'), [customerKey(tenantId, id)]);
  return customer && customerFromItem(customer);
}

/** The customer with this (normalised) phone, if any: one read of the identity item. */
export async function findCustomerByPhone(tenantId: string, phone: string): Promise<Customer | undefined> {
  const identity = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: customerIdentityKey(tenantId, phone), ConsistentRead: true }),
  );
  return customerOfIdentity(tenantId, identity.Item);
}

/**
 * A page of the tenant's customers whose name, or the rest of it from a later word, starts with `form`, A to
 * Z by what matched: one Query. A later-word entry is skipped where an entry before it matches too, so each
 * customer is listed once.
 */
export async function listCustomersByName(tenantId: string, form: string, request: { limit: number; cursor?: string }) {
  const before = Array.from({ length: LATER_WORDS_SEARCHED }, (_, i) => `NOT begins_with(before_${i}, :prefix)`);
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :prefix)',
      FilterExpression: before.join(' AND '),
      ExpressionAttributeValues: { ':p': nameIndexPartition(tenantId), ':prefix': form },
      ScanIndexForward: true,
    },
    request,
    { owner: tenantId, list: `customers:name:${form}` },
    ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
  );
  return {
    ...page,
    items: page.items.map((item) => (item.customer ? (item.customer as Customer) : customerFromItem(item))),
  };
}

/** A page of the tenant's customers, newest first: one Query. */
export async function listCustomers(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(tenantId, 'CUS#', 'customers', request);
  return { ...page, items: page.items.map(customerFromItem) };
}

/** Finds the customer with this phone (one read), creating them on first contact (safe under concurrency). */
export async function findOrCreateCustomer(
  tenantId: string,
  phone: string,
  name: string | null,
  now: Date,
  /** What the caller's own lookup by phone found (null: nobody), so the first try need not read again. */
  lookedUp?: Customer | null,
): Promise<Customer> {
  let found = lookedUp;
  return retryOnConflict(
    async () => {
      const existing = found === undefined ? await findCustomerByPhone(tenantId, phone) : found;
      found = undefined;
      if (existing) return existing;
      const customer = newCustomer(tenantId, phone, name, now);
      await db().send(new TransactWriteCommand({ TransactItems: customerPuts(customer) }));
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
