// Public: authentication and assignment read users.
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  conditionalWrite,
  db,
  transactionConditionFailed,
  transactionConflicted,
  versionedUpdate,
  type TransactItem,
} from '../platform/db';
import { tableName } from '../platform/config';
import { DomainError } from '../platform/domain-error';
import { tenantPk } from '../platform/keys';
import { tenantItemsPage } from '../platform/pagination';
import { tenantKey } from '../tenants/store';
import { activeAdminDelta, isActiveAdmin, type User } from './user';

/** The only code that knows how user records are keyed. */
export const userKey = (tenantId: string, userId: string) => ({ pk: tenantPk(tenantId), sk: `USER#${userId}` });
/** One claim item per (tenant, email) makes emails unique within a tenant under concurrency. */
const emailClaimKey = (tenantId: string, email: string) => ({ pk: tenantPk(tenantId), sk: `EMAIL#${email}` });
const emailIndexKey = (email: string) => `EMAIL#${email}`;

export function userFromItem(item: Record<string, unknown>): User {
  const { pk, sk, gsi1pk, gsi1sk, ...user } = item;
  return user as unknown as User;
}

/** Transaction items that create a user; the email claim fails the transaction if the email is taken. */
export function userCreateItems(user: User) {
  const table = tableName('main');
  return [
    {
      Put: {
        TableName: table,
        Item: {
          ...userKey(user.tenant_id, user.id),
          gsi1pk: emailIndexKey(user.email),
          gsi1sk: tenantPk(user.tenant_id),
          ...user,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...emailClaimKey(user.tenant_id, user.email), user_id: user.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * A transaction's check that the user is still active: a write that assigns work to them commits only
 * if they were not disabled since they were read (the release of a disabled user's work would miss it).
 */
export const activeUserCheck = (tenantId: string, userId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName('main'),
    Key: userKey(tenantId, userId),
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

export async function getUser(tenantId: string, userId: string): Promise<User | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: userKey(tenantId, userId), ConsistentRead: true }),
  );
  return out.Item ? userFromItem(out.Item) : undefined;
}

export async function findUserByEmail(tenantId: string, email: string): Promise<User | undefined> {
  const claim = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: emailClaimKey(tenantId, email), ConsistentRead: true }),
  );
  const userId = claim.Item?.user_id as string | undefined;
  return userId ? getUser(tenantId, userId) : undefined;
}

/** Tenants that have a user with this email (login without X-Tenant-ID). At most a few, so one page. */
export async function tenantsWithEmail(email: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :e',
      ExpressionAttributeValues: { ':e': emailIndexKey(email) },
      ProjectionExpression: 'tenant_id',
      Limit: 10,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.tenant_id));
}

/**
 * The last-admin rule, as a counter: the tenant item holds `active_admins`, and every write that makes
 * a user an active admin or stops one being one changes it in the same transaction as the user. Taking
 * one away is conditional on `active_admins > 1`, so however many demotions or disablings run at once,
 * the one that would take the count to zero is refused. Adding one is conditional on the counter
 * existing, so a tenant created before it is counted (once, below) before anything moves it.
 */
const ADMIN_COUNTER = 'active_admins';

/**
 * A write lost and can be retried: the user changed since it was read ('user', If-Match territory), or
 * the admin counter had to be started or another transaction collided ('admins').
 */
export class UserChanged extends Error {
  constructor(readonly what: 'user' | 'admins') {
    super(`${what} changed concurrently`);
    this.name = 'UserChanged';
  }
}

const lastActiveAdmin = () =>
  DomainError.conflict('last_admin', 'This is the tenant\u2019s last active admin; promote another user first.');

function adminCounterUpdate(tenantId: string, delta: number) {
  return {
    Update: {
      TableName: tableName('main'),
      Key: tenantKey(tenantId),
      UpdateExpression: 'ADD #admins :delta',
      ConditionExpression: delta < 0 ? '#admins > :one' : 'attribute_exists(#admins)',
      ExpressionAttributeNames: { '#admins': ADMIN_COUNTER },
      ExpressionAttributeValues: delta < 0 ? { ':delta': delta, ':one': 1 } : { ':delta': delta },
    },
  };
}

async function hasAdminCounter(tenantId: string): Promise<boolean> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: tenantKey(tenantId),
      ProjectionExpression: '#admins',
      ExpressionAttributeNames: { '#admins': ADMIN_COUNTER },
      ConsistentRead: true,
    }),
  );
  return out.Item?.[ADMIN_COUNTER] !== undefined;
}

/**
 * Starts the counter of a tenant that has none. Exact: while it is missing, no write can change the
 * number of active admins (their conditions need the counter), so the count cannot go stale before it is set.
 */
async function startAdminCounter(tenantId: string): Promise<void> {
  const count = (await activeAdminIds(tenantId)).length;
  // A failed condition: someone else started it meanwhile.
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: tenantKey(tenantId),
        UpdateExpression: 'SET #admins = :count',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#admins)',
        ExpressionAttributeNames: { '#admins': ADMIN_COUNTER },
        ExpressionAttributeValues: { ':count': count },
      }),
    ),
  );
}

/**
 * Creates the user; false if the email is already taken in this tenant. Throws UserChanged when the
 * transaction must be tried again (transactions on the tenant item collide when admins change at once).
 */
export async function insertUser(user: User): Promise<boolean> {
  const counter = isActiveAdmin(user) ? [adminCounterUpdate(user.tenant_id, 1)] : [];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [...userCreateItems(user), ...counter] }));
    return true;
  } catch (error) {
    if (transactionConditionFailed(error, [0, 1])) return false;
    if (transactionConditionFailed(error, [2])) {
      await startAdminCounter(user.tenant_id);
      throw new UserChanged('admins');
    }
    if (transactionConflicted(error)) throw new UserChanged('admins');
    throw error;
  }
}

/** Active admins of a tenant (users are few per tenant: one page of 100 is read, projected). */
export async function activeAdminIds(tenantId: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': 'USER#' },
      ExpressionAttributeNames: { '#role': 'role', '#status': 'status' },
      ProjectionExpression: 'id, #role, #status',
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((u) => u.role === 'admin' && u.status === 'active').map((u) => String(u.id));
}

export async function listUsers(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(tenantId, 'USER#', 'users', request);
  return { ...page, items: page.items.map(userFromItem) };
}

export type UserChanges = Partial<Pick<User, 'name' | 'role' | 'status' | 'password_hash' | 'credentials_changed_at'>>;

/** The user as the update below leaves it. */
function applied(before: User, changes: UserChanges, now: string): User {
  const after: Record<string, unknown> = { ...before, updated_at: now, version: before.version + 1 };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete after[field];
    else if (value !== undefined) after[field] = value;
  }
  return after as unknown as User;
}

/**
 * Applies the changes to the user as read, conditional on that version, and moves the tenant's admin
 * counter in the same transaction when the user gains or loses active admin status. Throws UserChanged
 * when another write got in first, and last_admin rather than leave the tenant without an active admin.
 */
export async function saveUserChange(before: User, changes: UserChanges, now: string): Promise<User> {
  const tenantId = before.tenant_id;
  const after = applied(before, changes, now);
  const delta = activeAdminDelta(before, after);
  const update = versionedUpdate(changes, now);
  update.whenEquals('version', before.version);
  const userUpdate = { Update: { TableName: tableName('main'), Key: userKey(tenantId, before.id), ...update.build() } };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [userUpdate, ...(delta !== 0 ? [adminCounterUpdate(tenantId, delta)] : [])],
      }),
    );
    return after;
  } catch (error) {
    if (transactionConditionFailed(error, [0])) throw new UserChanged('user');
    if (transactionConditionFailed(error, [1])) {
      if (delta < 0 && (await hasAdminCounter(tenantId))) throw lastActiveAdmin();
      await startAdminCounter(tenantId);
      throw new UserChanged('admins');
    }
    if (transactionConflicted(error)) throw new UserChanged('admins');
    throw error;
  }
}
