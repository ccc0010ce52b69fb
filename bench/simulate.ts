/**
 * `npm run simulate`: replays a synthetic day through the capacity model (bench/capacity.ts). One large
 * tenant with a daytime peak beside many small tenants, messages both ways, bookings, webhook fan-out to
 * several endpoints; hour by hour it finds the hottest keys and partitions with their share of the
 * per-partition limits (1,000 write and 3,000 read units a second), then prints the day's peaks, the
 * first limit at each scale step of docs/scaling.md, and the month's cost.
 *
 *   npm run simulate [-- --large-peak <rps>] [-- --small <tenants>]
 */
import {
  DEFAULT_MIX,
  LIMITS,
  firstLimit,
  hottestKeys,
  limitsAt,
  monthlyCost,
  partitionShare,
  tenantUnits,
  type KeyClass,
  type Traffic,
} from './capacity';

const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const LARGE_PEAK_RPS = option('large-peak', 2_000);
const SMALL_TENANTS = option('small', 5_000);
const SMALL_PEAK_RPS = 0.5;

/** Share of the day's peak in each hour (UTC): quiet nights, a morning and an afternoon high. */
const DAY = [
  0.05, 0.04, 0.03, 0.03, 0.04, 0.08, 0.2, 0.45, 0.75, 0.95, 1, 0.9, 0.8, 0.85, 0.95, 1, 0.9, 0.75, 0.6, 0.45, 0.3, 0.2,
  0.12, 0.08,
];

const large = (rps: number): Traffic => ({
  rps,
  mix: DEFAULT_MIX,
  endpoints: 3,
  hourlyLimit: 10_000_000,
  apiKeys: 2,
});
const small = (rps: number): Traffic => ({ rps, mix: DEFAULT_MIX, endpoints: 1, hourlyLimit: 1_000, apiKeys: 1 });

const pct = (share: number) => `${(share * 100).toFixed(1)} %`.padStart(9);

interface Hot {
  key: string;
  reads: number;
  writes: number;
  share: number;
  hour: number;
}
const hottest = new Map<string, Hot>();
const note = (key: string, load: { reads: number; writes: number }, hour: number) => {
  const share = partitionShare(load);
  const seen = hottest.get(key);
  if (!seen || share > seen.share) hottest.set(key, { key, ...load, share, hour });
};
const NAMES: Record<KeyClass, string> = {
  tenant: 'base table TENANT#<t>',
  tenantIndex: 'list indexes (convAll…) <t>',
  apiKey: 'API key item APIKEY#<hash>',
  rateLimit: 'rate-limit shard RL#<t>#<hour>#<n>',
  due: 'due index gsi5 DLVLEASE#<n>',
  spread: 'customer and conversation keys',
};

const days = DAY.map((share, hour) => {
  const big = large(LARGE_PEAK_RPS * share);
  const little = small(SMALL_PEAK_RPS * share);
  const deliveries = tenantUnits(big).deliveries + tenantUnits(little).deliveries * SMALL_TENANTS;
  for (const [who, t] of [
    ['large tenant', big],
    ['a small tenant', little],
  ] as const) {
    const keys = hottestKeys(t, deliveries);
    for (const [k, load] of Object.entries(keys) as [KeyClass, { reads: number; writes: number }][])
      if (k !== 'spread') note(k === 'due' ? NAMES.due : `${who}: ${NAMES[k]}`, load, hour);
  }
  return { hour, big, little, deliveries };
});

console.log(
  `A synthetic day: one tenant peaking at ${LARGE_PEAK_RPS} requests a second (3 webhook endpoints), beside ${SMALL_TENANTS} small tenants peaking at ${SMALL_PEAK_RPS} (1 endpoint each); mix ${JSON.stringify(DEFAULT_MIX)}\n`,
);
console.log(
  'Hottest keys and partitions at their hour of peak, as a share of one partition (1,000 WCU / 3,000 RCU a second):\n',
);
console.log(
  `${'key'.padEnd(58)} ${'hour'.padStart(4)} ${'RCU/s'.padStart(9)} ${'WCU/s'.padStart(9)} ${'share'.padStart(9)}`,
);
for (const h of [...hottest.values()].sort((a, b) => b.share - a.share))
  console.log(
    `${h.key.padEnd(58)} ${String(h.hour).padStart(4)} ${h.reads.toFixed(1).padStart(9)} ${h.writes.toFixed(1).padStart(9)} ${pct(h.share)}${h.share > 1 ? ' OVER' : ''}`,
  );

const peak = days.reduce((a, b) => (b.big.rps > a.big.rps ? b : a));
const peakRps = peak.big.rps + peak.little.rps * SMALL_TENANTS;
console.log(
  `\nAt the peak hour: ${Math.round(peakRps)} requests a second in all (API Gateway quota ${LIMITS.apiGatewayRps}: ${pct(peakRps / LIMITS.apiGatewayRps).trim()}), ${Math.round(peak.deliveries)} webhook deliveries a second`,
);

console.log(
  '\nFirst limit at each step (every tenant at the same rate; 2 endpoints, the enterprise limit, 1 API key):\n',
);
console.log(`${'tenant rps'.padStart(10)} ${'tenants'.padStart(8)}  ${'first limit'.padEnd(64)} ${'use'.padStart(9)}`);
for (const tenantRps of [10, 100, 1_000, 10_000])
  for (const tenants of [1, 1_000, 100_000]) {
    const limit = firstLimit(
      limitsAt({ tenantRps, tenants }, { mix: DEFAULT_MIX, endpoints: 2, hourlyLimit: 10_000_000, apiKeys: 1 }),
    );
    console.log(
      `${String(tenantRps).padStart(10)} ${String(tenants).padStart(8)}  ${limit.what.padEnd(64)} ${pct(limit.share)}${limit.share > 1 ? ' OVER' : ''}`,
    );
  }

// The month: 30 of these days (each hour's rate held for the hour).
const month = DAY.map((_, hour) => {
  const d = days[hour]!;
  // The small tenants' costs add up as one tenant with their summed rate (the model is linear in rate).
  return monthlyCost([d.big, { ...d.little, rps: d.little.rps * SMALL_TENANTS }]);
}).reduce<Record<string, number>>((sum, c) => {
  for (const [k, v] of Object.entries(c)) sum[k] = (sum[k] ?? 0) + v / 24;
  return sum;
}, {});
console.log(
  `\nThe month (30 such days, request-driven costs on list prices): ${Object.entries(month)
    .map(([k, v]) => `${k} $${v.toFixed(0)}`)
    .join(', ')}`,
);
