import { randomUUID } from 'node:crypto';
import { consume, consumeSharded, shardShares } from '../../functions/platform/counters';
import { provisionTenant } from '../../functions/tenants/service';
import { findUserByEmail } from '../../functions/users/store';
import { endSession, refreshSession, startSession } from '../../functions/auth/session-service';
import { sessionKey } from '../../functions/auth/session-store';
import { authenticateTenant } from '../../functions/auth/authenticate';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { db } from '../../functions/platform/db';
import { tableName } from '../../functions/platform/config';
import { MAX_FILTERED_READ, queryPage } from '../../functions/platform/pagination';
import { useRuntimeAws } from '../support/aws';
import { codeOf } from '../support/errors';

useRuntimeAws();

describe('fixed-window counters on DynamoDB Local', () => {
  it('allow exactly `limit` of many concurrent increments', async () => {
    const key = `IT#${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 40 }, () => consume(key, { limit: 7, expiresAtEpoch: Math.floor(Date.now() / 1000) + 60 })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.count)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('sharded counters on DynamoDB Local', () => {
  it('split a limit into shares that add up to it, one per item rate', () => {
    expect(shardShares(1000, 3_600_000)).toEqual([1000]);
    expect(shardShares(10_000_000, 3_600_000)).toEqual([3_333_334, 3_333_333, 3_333_333]);
    expect(shardShares(10, 3)).toEqual([3, 3, 2, 2]);
  });

  it('allow exactly `limit` of many concurrent increments across shards', async () => {
    const key = `IT#${randomUUID()}`;
    const shares = shardShares(10, 3);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => consumeSharded(key, shares, Math.floor(Date.now() / 1000) + 60)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    // Every shard is full: a refusal only comes once the whole limit is used.
    expect(await consumeSharded(key, shares, Math.floor(Date.now() / 1000) + 60)).toMatchObject({ allowed: false });
  });
});

describe('filtered pages on DynamoDB Local', () => {
  it('read at most MAX_FILTERED_READ items, then resume where they stopped', async () => {
    const pk = `IT#${randomUUID()}`;
    const count = MAX_FILTERED_READ + 10;
    // Newest first, so the one match (the oldest item) is only reached past the bound.
    const items = Array.from({ length: count }, (_, i) => ({
      pk,
      sk: `ITEM#${String(i).padStart(5, '0')}`,
      kind: i === 0 ? 'hit' : 'miss',
    }));
    for (let i = 0; i < items.length; i += 25) {
      const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName('main')]: batch } }));
    }
    const query = {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'kind = :kind',
      ExpressionAttributeValues: { ':pk': pk, ':kind': 'hit' },
    };
    const binding = { owner: 'it', list: pk };
    const first = await queryPage(query, { limit: 10 }, binding, ['pk', 'sk']);
    expect(first).toMatchObject({ items: [], hasMore: true });
    const second = await queryPage(query, { limit: 10, cursor: first.nextCursor ?? undefined }, binding, ['pk', 'sk']);
    expect(second).toMatchObject({ items: [{ sk: 'ITEM#00000', kind: 'hit' }], hasMore: false, nextCursor: null });
  });
});

describe('pages cut at DynamoDB\u2019s 1 MB', () => {
  it('say has_more and resume where the Query stopped, without a filter too', async () => {
    const pk = `IT#${randomUUID()}`;
    const blob = 'x'.repeat(300 * 1024);
    for (let i = 0; i < 8; i++) {
      await db().send(
        new BatchWriteCommand({
          RequestItems: { [tableName('main')]: [{ PutRequest: { Item: { pk, sk: `ITEM#${i}`, blob } } }] },
        }),
      );
    }
    const query = {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    };
    const binding = { owner: 'it', list: pk };
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await queryPage(query, { limit: 20, cursor }, binding, ['pk', 'sk']);
      seen.push(...page.items.map((item) => item.sk));
      cursor = page.nextCursor ?? undefined;
      pages++;
      if (cursor) expect(page.hasMore).toBe(true);
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1, 0].map((i) => `ITEM#${i}`));
  });
});

/** A new tenant's admin, logged in at `at`. */
async function loggedIn(name: string, at: Date) {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
  const { tenant } = await provisionTenant(
    { name: `${name} Co`, plan: 'pro', admin: { email, password: `${name} password 123` } },
    at,
  );
  const user = await findUserByEmail(tenant.id, email);
  if (!user) throw new Error('user missing');
  return { tenant, login: await startSession(user, at) };
}

describe('sessions with an injected clock', () => {
  it('expire 30 days after login, however often they were refreshed', async () => {
    const day0 = new Date();
    const { tenant, login } = await loggedIn('clock', day0);

    const day29 = new Date(day0.getTime() + 29 * 86_400_000);
    const refreshed = await refreshSession(login.refresh_token, undefined, day29);
    expect(refreshed.refresh_expires_at).toBe(login.refresh_expires_at);
    const access = await authenticateTenant(`Bearer ${refreshed.access_token}`, tenant.id, day29);
    expect(access.kind).toBe('user');

    const day31 = new Date(day0.getTime() + 31 * 86_400_000);
    expect(await codeOf(refreshSession(refreshed.refresh_token, undefined, day31))).toBe('401:token_expired');
    // An access token issued minutes before the absolute expiry stops working at it, though its own exp is later.
    const lastMinutes = new Date(day0.getTime() + 30 * 86_400_000 - 5 * 60_000);
    const late = await refreshSession(refreshed.refresh_token, undefined, lastMinutes);
    expect(
      await codeOf(
        authenticateTenant(`Bearer ${late.access_token}`, tenant.id, new Date(lastMinutes.getTime() + 4 * 60_000)),
      ),
    ).toBe('ok');
    expect(
      await codeOf(
        authenticateTenant(`Bearer ${late.access_token}`, tenant.id, new Date(lastMinutes.getTime() + 6 * 60_000)),
      ),
    ).toBe('401:session_revoked');
  });
});

describe('a session revoked twice', () => {
  it('keeps its first revocation, and the second logout writes nothing', async () => {
    const at = new Date();
    const { tenant, login } = await loggedIn('twice', at);
    const sessionId = login.session_id;
    // A client of its own: db() hides the write id, which names the item's last write.
    const raw = new DynamoDBClient({});
    const stored = async () =>
      (
        await raw.send(
          new GetItemCommand({
            TableName: tableName('main'),
            Key: marshall(sessionKey(tenant.id, sessionId)),
            ConsistentRead: true,
          }),
        )
      ).Item;
    await endSession(tenant.id, sessionId, at);
    const first = await stored();
    expect(first?.revoked_at?.S).toBe(at.toISOString());
    expect(first?.wid?.S).toBeDefined();
    await endSession(tenant.id, sessionId, new Date(at.getTime() + 60_000));
    expect(await stored()).toEqual(first);
    raw.destroy();
  });
});
