/**
 * The capacity model behind docs/scaling.md and `npm run simulate`: what each request costs (DynamoDB
 * units on which key, Lambda time, queue messages), measured by `npm run bench`, and what the AWS limits
 * are, turned into the load on every partition, queue and quota at a given traffic. Pure arithmetic.
 */
import { counterShares } from '../functions/http/rate-limit';
import { DUE_SHARDS } from '../functions/platform/due-index';
import { PRICES } from './prices';

/** Per-partition and account limits (AWS defaults; the quotas can be raised, the partition limits cannot). */
export const LIMITS = {
  /** One partition (and so one partition key) of a table or index. */
  partitionWritesPerSecond: 1_000,
  partitionReadsPerSecond: 3_000,
  /** Account-wide Lambda concurrency (a quota; raised on request). */
  lambdaConcurrency: 1_000,
  /** API Gateway HTTP API requests per second per account and Region (a quota), and its burst. */
  apiGatewayRps: 10_000,
  /** Standard SQS queues: no throughput limit; in-flight messages per queue. */
  sqsInFlight: 120_000,
  /** Lambda's stream readers per DynamoDB stream shard that AWS advises at most. */
  streamReadersPerShard: 2,
} as const;

/**
 * Where a unit lands. `tenant`: the tenant's base-table partition key (every item of a tenant shares
 * `TENANT#<t>`); `tenantIndex`: a tenant-keyed index partition (the conversation lists, the event
 * categories); `apiKey`: the key's own item, read by every request; `rateLimit`: one shard of the
 * tenant's hourly counter; `due`: one shard of the due-time index, shared by all tenants; `spread`: keys
 * with many values (a customer's, a conversation's), never hot.
 */
export type KeyClass = 'tenant' | 'tenantIndex' | 'apiKey' | 'rateLimit' | 'due' | 'spread';

export interface UnitsOn {
  key: KeyClass;
  reads: number;
  writes: number;
}

export interface RequestCost {
  units: UnitsOn[];
  /** Lambda invocations and their billed milliseconds, at their memory in MB. */
  lambda: { invocations: number; ms: number; memoryMb: number };
  /**
   * Events it commits that a typical endpoint subscribes to (each fans out to the tenant's endpoints): a
   * message's `conversation.message.*`, not its delivery receipts.
   */
  events: number;
}

/**
 * Per request, from the bench's figures (README bench section, bench/RESULTS.md): the list reads the key
 * (1) and the page (1) and writes the rate-limit count (1); a message adds the conversation's update and
 * its two activity-sorted list entries (2 each), the message and the sender's write, and the dispatcher's
 * event item; an inbound message and a booking likewise, by their own rows.
 */
export const REQUESTS: Record<'list' | 'message' | 'inbound' | 'booking', RequestCost> = {
  list: {
    units: [
      { key: 'apiKey', reads: 1, writes: 0 },
      { key: 'rateLimit', reads: 0, writes: 1 },
      { key: 'tenantIndex', reads: 1, writes: 0 },
    ],
    lambda: { invocations: 1, ms: 25, memoryMb: 512 },
    events: 0,
  },
  message: {
    units: [
      { key: 'apiKey', reads: 1, writes: 0 },
      { key: 'rateLimit', reads: 0, writes: 1 },
      { key: 'tenant', reads: 0, writes: 4 },
      { key: 'tenantIndex', reads: 0, writes: 4 },
      { key: 'spread', reads: 0, writes: 1 },
    ],
    lambda: { invocations: 4, ms: 120, memoryMb: 512 },
    events: 1,
  },
  inbound: {
    units: [
      { key: 'apiKey', reads: 1, writes: 0 },
      { key: 'rateLimit', reads: 0, writes: 1 },
      { key: 'tenant', reads: 3, writes: 6 },
      { key: 'tenantIndex', reads: 0, writes: 4 },
      { key: 'spread', reads: 0, writes: 1 },
    ],
    lambda: { invocations: 4, ms: 160, memoryMb: 512 },
    events: 1,
  },
  booking: {
    units: [
      { key: 'apiKey', reads: 1, writes: 0 },
      { key: 'rateLimit', reads: 0, writes: 1 },
      { key: 'tenant', reads: 2, writes: 16 },
      { key: 'tenantIndex', reads: 0, writes: 6 },
    ],
    lambda: { invocations: 3, ms: 150, memoryMb: 512 },
    events: 1,
  },
};

/**
 * One webhook delivery: the dispatcher puts it (1 write, its per-endpoint index entry 1), the worker takes
 * the attempt (1, and its due-index entry) and records it (1, the entry removed, its status index moved).
 */
export const DELIVERY: RequestCost = {
  units: [
    { key: 'tenant', reads: 0, writes: 3 },
    { key: 'tenantIndex', reads: 0, writes: 2 },
    { key: 'due', reads: 0, writes: 2 },
  ],
  lambda: { invocations: 1, ms: 30, memoryMb: 512 },
  events: 0,
};

export type Mix = Record<keyof typeof REQUESTS, number>;
/** A messaging tenant's day: mostly reads of lists, then messages both ways, a few bookings. */
export const DEFAULT_MIX: Mix = { list: 0.55, message: 0.2, inbound: 0.2, booking: 0.05 };

export interface Traffic {
  /** Requests per second of the tenant. */
  rps: number;
  mix: Mix;
  /** Webhook endpoints subscribed to its events. */
  endpoints: number;
  /** Its hourly limit (its plan's), which sizes its rate-limit counter. */
  hourlyLimit: number;
  /** API keys its requests spread over. */
  apiKeys: number;
}

/** Units per second on the hottest key of each class, for one tenant's traffic. */
export type KeyLoad = Record<KeyClass, { reads: number; writes: number }>;

const zero = (): KeyLoad => ({
  tenant: { reads: 0, writes: 0 },
  tenantIndex: { reads: 0, writes: 0 },
  apiKey: { reads: 0, writes: 0 },
  rateLimit: { reads: 0, writes: 0 },
  due: { reads: 0, writes: 0 },
  spread: { reads: 0, writes: 0 },
});

/** Total units per second by key class for a tenant (before dividing over shards or keys). */
export function tenantUnits(t: Traffic): { units: KeyLoad; deliveries: number } {
  const units = zero();
  let events = 0;
  for (const [kind, share] of Object.entries(t.mix) as [keyof Mix, number][]) {
    const cost = REQUESTS[kind];
    const rate = t.rps * share;
    events += rate * cost.events;
    for (const u of cost.units) {
      units[u.key].reads += rate * u.reads;
      units[u.key].writes += rate * u.writes;
    }
  }
  const deliveries = events * t.endpoints;
  for (const u of DELIVERY.units) {
    units[u.key].reads += deliveries * u.reads;
    units[u.key].writes += deliveries * u.writes;
  }
  return { units, deliveries };
}

/**
 * The hottest single key of each class: the tenant's partition key and index keys take all of the
 * tenant's units; the rate limit and the API key divide by their shards and keys; the due index divides
 * all tenants' deliveries by its shards (`allDeliveries`).
 */
export function hottestKeys(t: Traffic, allDeliveries: number): KeyLoad {
  const { units } = tenantUnits(t);
  const shards = counterShares(t.hourlyLimit).length;
  return {
    tenant: units.tenant,
    tenantIndex: units.tenantIndex,
    apiKey: { reads: units.apiKey.reads / t.apiKeys, writes: 0 },
    rateLimit: { reads: 0, writes: units.rateLimit.writes / shards },
    due: { reads: 0, writes: (allDeliveries * 2) / DUE_SHARDS },
    spread: { reads: 0, writes: 0 },
  };
}

/** A key's share of its partition's limit: the larger of its read and write shares. */
export const partitionShare = (load: { reads: number; writes: number }): number =>
  Math.max(load.reads / LIMITS.partitionReadsPerSecond, load.writes / LIMITS.partitionWritesPerSecond);

export interface Step {
  tenantRps: number;
  tenants: number;
}

export interface Limit {
  what: string;
  /** Its use at this step, as a share of the limit (1 = at the limit). */
  share: number;
  lifts: string;
}

/**
 * Every limit's use at a step: `tenants` tenants, each at `tenantRps` (the same traffic), plus their
 * total against the account's quotas.
 */
export function limitsAt(step: Step, base: Omit<Traffic, 'rps'>): Limit[] {
  const t: Traffic = { ...base, rps: step.tenantRps };
  const { deliveries } = tenantUnits(t);
  const allDeliveries = deliveries * step.tenants;
  const keys = hottestKeys(t, allDeliveries);
  const totalRps = step.tenantRps * step.tenants;
  const lambdaSeconds = (Object.entries(t.mix) as [keyof Mix, number][]).reduce(
    (s, [kind, share]) => s + share * (REQUESTS[kind].lambda.ms / 1000),
    0,
  );
  const concurrency = totalRps * lambdaSeconds + allDeliveries * (DELIVERY.lambda.ms / 1000);
  return [
    {
      what: "tenant's base-table partition key (TENANT#<t>)",
      share: partitionShare(keys.tenant),
      lifts:
        'split the tenant over several partition keys (write sharding by conversation), or a table per large tenant',
    },
    {
      what: "tenant's list index keys (convAll/convStatus, event categories)",
      share: partitionShare(keys.tenantIndex),
      lifts: 'shard the list keys by a hash (reads query every shard and merge), as the due index does',
    },
    {
      what: 'one API key item (strongly consistent read per request)',
      share: partitionShare(keys.apiKey),
      lifts: 'more API keys, or keep the key in the function for up to 60 s (the documented revocation bound)',
    },
    {
      what: "one rate-limit counter shard (sized by the plan's peak)",
      share: partitionShare(keys.rateLimit),
      lifts: 'more shards (PEAK_SECONDS shorter)',
    },
    {
      what: `one due-index shard (gsi5, ${DUE_SHARDS} shared by all tenants)`,
      share: partitionShare(keys.due),
      lifts: 'more shards (PEAK_DELIVERIES_PER_SECOND), each sweep reading them all',
    },
    {
      what: 'API Gateway requests per second (account quota)',
      share: totalRps / LIMITS.apiGatewayRps,
      lifts: 'a quota increase; beyond it, more Regions or accounts',
    },
    {
      what: 'Lambda concurrency (account quota)',
      share: concurrency / LIMITS.lambdaConcurrency,
      lifts: 'a quota increase (tens of thousands are granted), provisioned concurrency for cold starts',
    },
    {
      what: 'webhook delivery queue (SQS standard, messages in flight)',
      share: (allDeliveries * (DELIVERY.lambda.ms / 1000)) / LIMITS.sqsInFlight,
      lifts: 'none needed: standard queues have no throughput limit',
    },
  ];
}

/** The limit reached first at a step: the one with the largest share. */
export const firstLimit = (limits: Limit[]): Limit => limits.reduce((a, b) => (b.share > a.share ? b : a));

/** Dollars for a month of this traffic (30 days), by service. */
export interface MonthlyCost {
  dynamodb: number;
  lambda: number;
  apiGateway: number;
  waf: number;
  sqs: number;
  total: number;
}

export function monthlyCost(tenants: Traffic[]): MonthlyCost {
  const seconds = 30 * 24 * 3600;
  let reads = 0;
  let writes = 0;
  let lambda = 0;
  let requests = 0;
  let sqs = 0;
  for (const t of tenants) {
    const { units, deliveries } = tenantUnits(t);
    for (const u of Object.values(units)) {
      reads += u.reads;
      writes += u.writes;
    }
    requests += t.rps;
    for (const [kind, share] of Object.entries(t.mix) as [keyof Mix, number][]) {
      const l = REQUESTS[kind].lambda;
      lambda += t.rps * share * lambdaDollars(l);
    }
    lambda += deliveries * lambdaDollars(DELIVERY.lambda);
    // A delivery: one send, one receive and one delete.
    sqs += deliveries * 3;
  }
  const cost = {
    dynamodb: (reads * PRICES.dynamoReadUnit + writes * PRICES.dynamoWriteUnit) * seconds,
    lambda: lambda * seconds,
    apiGateway: requests * PRICES.httpApiRequest * seconds,
    waf: requests * PRICES.wafRequest * seconds,
    sqs: sqs * PRICES.sqsRequest * seconds,
  };
  return { ...cost, total: Object.values(cost).reduce((a, b) => a + b, 0) };
}

function lambdaDollars(l: RequestCost['lambda']): number {
  return l.invocations * PRICES.lambdaRequest + (l.ms / 1000) * (l.memoryMb / 1024) * PRICES.lambdaGbSecond;
}
