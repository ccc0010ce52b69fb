import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, transactionConditionFailed, updateVersioned } from '../platform/db';
import { tableName } from '../platform/config';
import { queryPage } from '../platform/pagination';
import type { User } from './user';

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

/** Creates the user; false if the email is already taken in this tenant. */
export async function createUser(user: User): Promise<boolean> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: userCreateItems(user) }));
    return true;
  } catch (error) {
    if (transactionConditionFailed(error)) return false;
    throw error;
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

export async function updateUser(tenantId: string, userId: string, changes: UserChanges, now: string, expectedVersion?: number): Promise<User> {
  const item = await updateVersioned(tableName('main'), userKey(tenantId, userId), changes, { now, expectedVersion, what: 'The user' });
  return userFromItem(item);
}
