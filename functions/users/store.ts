import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, transactionConditionFailed, transactionConflicted, versionedUpdate } from '../platform/db';
import { tableName } from '../platform/config';
import { conflict, notFound, preconditionFailed } from '../platform/errors';
import { queryPage } from '../platform/pagination';
import { tenantKey } from '../tenants/store';
import { activeAdminDelta, isActiveAdmin, type User } from './user';

/** The only code that knows how user records are keyed. */
export const userKey = (tenantId: string, userId: string) => ({ pk: `TENANT#${tenantId}`, sk: `USER#${userId}` });
/** One claim item per (tenant, email) makes emails unique within a tenant under concurrency. */
const emailClaimKey = (tenantId: string, email: string) => ({ pk: `TENANT#${tenantId}`, sk: `EMAIL#${email}` });
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
        Item: { ...userKey(user.tenant_id, user.id), gsi1pk: emailIndexKey(user.email), gsi1sk: `TENANT#${user.tenant_id}`, ...user },
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

export async function getUser(tenantId: string, userId: string): Promise<User | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName('main'), Key: userKey(tenantId, userId), ConsistentRead: true }));
  return out.Item ? userFromItem(out.Item) : undefined;
}

export async function findUserByEmail(tenantId: string, email: string): Promise<User | undefined> {
  const claim = await db().send(new GetCommand({ TableName: tableName('main'), Key: emailClaimKey(tenantId, email), ConsistentRead: true }));
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
const MAX_ATTEMPTS = 10;

/** The tenant would be left without an active admin. */
export class LastActiveAdmin extends Error {
  constructor() {
    super('last active admin');
    this.name = 'LastActiveAdmin';
  }
}

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
    new GetCommand({ TableName: tableName('main'), Key: tenantKey(tenantId), ProjectionExpression: '#admins', ExpressionAttributeNames: { '#admins': ADMIN_COUNTER }, ConsistentRead: true }),
  );
  return out.Item?.[ADMIN_COUNTER] !== undefined;
}

/**
 * Starts the counter of a tenant that has none. Exact: while it is missing, no write can change the
 * number of active admins (their conditions need the counter), so the count cannot go stale before it is set.
 */
async function startAdminCounter(tenantId: string): Promise<void> {
  const count = (await activeAdminIds(tenantId)).length;
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: tenantKey(tenantId),
        UpdateExpression: 'SET #admins = :count',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#admins)',
        ExpressionAttributeNames: { '#admins': ADMIN_COUNTER },
        ExpressionAttributeValues: { ':count': count },
      }),
    )
    .catch((error) => {
      // Someone else started it meanwhile.
      if (!isConditionFailure(error)) throw error;
    });
}

/** Transactions on the tenant item collide when admins change at once: wait a little and go again. */
async function retryOrGiveUp(attempt: number): Promise<void> {
  if (attempt >= MAX_ATTEMPTS) throw conflict('concurrent_update', 'Users of this tenant are changing too fast; retry.');
  await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
}

/** Creates the user; false if the email is already taken in this tenant. */
export async function createUser(user: User): Promise<boolean> {
  const counter = isActiveAdmin(user) ? [adminCounterUpdate(user.tenant_id, 1)] : [];
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [...userCreateItems(user), ...counter] }));
      return true;
    } catch (error) {
      if (transactionConditionFailed(error, [0, 1])) return false;
      if (transactionConditionFailed(error, [2])) await startAdminCounter(user.tenant_id);
      else if (!transactionConflicted(error)) throw error;
      await retryOrGiveUp(attempt);
    }
  }
}

/** Active admins of a tenant (users are few per tenant: one page of 100 is read, projected). */
export async function activeAdminIds(tenantId: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':prefix': 'USER#' },
      ExpressionAttributeNames: { '#role': 'role', '#status': 'status' },
      ProjectionExpression: 'id, #role, #status',
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((u) => u.role === 'admin' && u.status === 'active').map((u) => String(u.id));
}

export async function listUsers(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':prefix': 'USER#' },
    },
    request,
    { owner: tenantId, list: 'users' },
    ['pk', 'sk'],
  );
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
 * Applies the changes conditional on the version that was read (If-Match, when given, must be that
 * version: else 412), and moves the tenant's admin counter in the same transaction when the user
 * gains or loses active admin status. Throws LastActiveAdmin rather than leave the tenant without one.
 */
export async function updateUser(tenantId: string, userId: string, changes: UserChanges, now: string, expectedVersion?: number): Promise<User> {
  for (let attempt = 1; ; attempt++) {
    const before = await getUser(tenantId, userId);
    if (!before) throw notFound('The user');
    if (expectedVersion !== undefined && before.version !== expectedVersion) throw preconditionFailed();
    const after = applied(before, changes, now);
    const delta = activeAdminDelta(before, after);
    const { update, names, values } = versionedUpdate(changes, now);
    const userUpdate = {
      Update: {
        TableName: tableName('main'),
        Key: userKey(tenantId, userId),
        UpdateExpression: update,
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':read': before.version },
      },
    };
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [userUpdate, ...(delta !== 0 ? [adminCounterUpdate(tenantId, delta)] : [])] }));
      return after;
    } catch (error) {
      if (transactionConditionFailed(error, [0])) {
        // The user changed since it was read: with If-Match that is a 412, else read it again.
        if (expectedVersion !== undefined) throw preconditionFailed();
      } else if (transactionConditionFailed(error, [1])) {
        if (delta < 0 && (await hasAdminCounter(tenantId))) throw new LastActiveAdmin();
        await startAdminCounter(tenantId);
      } else if (!transactionConflicted(error)) {
        throw error;
      }
      await retryOrGiveUp(attempt);
    }
  }
}
