import {
  DELIVERY,
  REQUESTS,
  firstLimit,
  hottestKeys,
  limitsAt,
  monthlyCost,
  partitionShare,
  tenantUnits,
} from '../../bench/capacity';
import { DUE_SHARDS } from '../../functions/platform/due-index';
import { PRICES } from '../../bench/prices';

/** The capacity model behind docs/scaling.md and `npm run simulate`, on a case small enough to add up by hand. */
const listsOnly = { list: 1, message: 0, inbound: 0, booking: 0 };
const messagesOnly = { list: 0, message: 1, inbound: 0, booking: 0 };

it('adds up a tenant’s units by key class, deliveries included', () => {
  const { units, deliveries } = tenantUnits({
    rps: 10,
    mix: messagesOnly,
    endpoints: 2,
    hourlyLimit: 1000,
    apiKeys: 1,
  });
  // 10 messages a second, one subscribed event each, to 2 endpoints.
  expect(deliveries).toBe(20);
  const tenantWrites = 10 * 4 + 20 * 3;
  expect(units.tenant.writes).toBe(tenantWrites);
  expect(units.apiKey.reads).toBe(10);
  expect(units.rateLimit.writes).toBe(10);
  expect(units.due.writes).toBe(20 * 2);
  expect(REQUESTS.message.units.find((u) => u.key === 'tenant')?.writes).toBe(4);
  expect(DELIVERY.units.find((u) => u.key === 'due')?.writes).toBe(2);
});

it('divides the sharded keys by their shards and keys, and names the first limit', () => {
  // 120,000 an hour counts in 2 shards (one per 60,000: 1,000 a second for 60 s).
  const t = { rps: 3000, mix: listsOnly, endpoints: 0, hourlyLimit: 120_000, apiKeys: 2 };
  const keys = hottestKeys(t, 1000);
  expect(keys.rateLimit.writes).toBe(1500);
  expect(keys.apiKey.reads).toBe(1500);
  expect(keys.due.writes).toBeCloseTo(2000 / DUE_SHARDS);
  expect(partitionShare(keys.rateLimit)).toBe(1.5);
  expect(partitionShare({ reads: 1500, writes: 0 })).toBe(0.5);
  const first = firstLimit(limitsAt({ tenantRps: 3000, tenants: 1 }, t));
  expect(first.what).toMatch(/rate-limit counter shard/);
  expect(first.share).toBe(1.5);
  // 3,000 requests a second from each of 4 tenants is past API Gateway's 10,000.
  const many = limitsAt({ tenantRps: 3000, tenants: 4 }, t).find((l) => l.what.startsWith('API Gateway'));
  expect(many?.share).toBe(1.2);
});

it('prices a month of traffic from the list prices', () => {
  const cost = monthlyCost([{ rps: 1, mix: listsOnly, endpoints: 0, hourlyLimit: 1000, apiKeys: 1 }]);
  const seconds = 30 * 24 * 3600;
  expect(cost.apiGateway).toBeCloseTo(seconds * PRICES.httpApiRequest);
  // Per list: 2 reads (key, page) and 1 write (the count).
  expect(cost.dynamodb).toBeCloseTo(seconds * (2 * PRICES.dynamoReadUnit + PRICES.dynamoWriteUnit));
  expect(cost.sqs).toBe(0);
  const part = (name: keyof typeof cost) => cost[name] ?? Number.NaN;
  expect(cost.total).toBeCloseTo(part('dynamodb') + part('lambda') + part('apiGateway') + part('waf') + part('sqs'));
});
