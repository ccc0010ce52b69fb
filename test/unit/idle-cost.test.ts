import { readFileSync } from 'node:fs';
import {
  IDLE_TARGET_DOLLARS,
  formatCost,
  idleCost,
  perThousandConversations,
  total,
  type CostItem,
} from '../../bench/idle-cost';

/** The idle cost of a small hand-made template (test/fixtures/cost/), item by item, at bench/prices.ts. */
const body = readFileSync(new URL('../fixtures/cost/small-stack.template.json', import.meta.url), 'utf8');
const idle = idleCost([{ name: 'Small', body }]);
const monthly = (item: string) => idle.find((i) => i.item === item)?.monthly;

it('prices each item of the template', () => {
  // Two alarms, one a math expression over two metrics: three alarm metrics at $0.10.
  expect(idle.find((i) => i.item === 'CloudWatch alarms')).toMatchObject({ quantity: 3 });
  expect(monthly('CloudWatch alarms')).toBeCloseTo(0.3, 6);
  expect(monthly('Secrets Manager secrets')).toBeCloseTo(0.4, 6);
  expect(monthly('KMS customer managed keys')).toBeCloseTo(1, 6);
  expect(monthly('WAF web ACLs')).toBeCloseTo(5, 6);
  expect(monthly('WAF rules')).toBeCloseTo(3, 6);
  // Only the queue source is polled while idle: 648,000 calls at $0.40 per million.
  expect(monthly('SQS polling by Lambda queue sources')).toBeCloseTo(0.2592, 6);
  expect(monthly('DynamoDB storage')).toBeCloseTo(0.125, 6);
  expect(monthly('DynamoDB point-in-time recovery')).toBeCloseTo(0.1, 6);
  // 43,200 runs of one a minute, each an invocation, its lease and its due-index reads.
  expect(idle.find((i) => i.item === 'Scheduled worker runs')?.quantity).toBe(43_200);
  expect(monthly('Scheduled worker runs')).toBeCloseTo(0.12744, 4);
  expect(monthly('Log groups, CloudFront, API Gateway, Lambda, SNS')).toBe(0);
  expect(total(idle)).toBeCloseTo(10.3231, 3);
  // Largest first.
  expect(idle[0]?.item).toBe('WAF web ACLs');
});

it('adds per thousand conversations, with Bedrock only when configured', () => {
  const local = perThousandConversations({ bedrock: false, waf: false });
  const bedrock = perThousandConversations({ bedrock: true, waf: true });
  expect(local.find((i) => i.item === 'Messages (request, outbox, sender)')).toMatchObject({
    quantity: 12_000,
    monthly: expect.closeTo(0.12, 6),
  });
  expect(local.some((i) => i.item === 'WAF requests')).toBe(false);
  expect(bedrock.find((i) => i.item === 'Bedrock analyses')?.monthly).toBeCloseTo(
    6000 * (600 * 0.8e-6 + 150 * 4e-6),
    6,
  );
  expect(total(bedrock)).toBeGreaterThan(total(local));
});

it('prints the total against the target, OVER when missed, and what would lower it', () => {
  const report = formatCost(idle, perThousandConversations({ bedrock: false, waf: true }));
  expect(report.withinTarget).toBe(true);
  expect(report.text).toMatch(/\$10\.32 {2}total, target \$20\.00: OK/);
  expect(report.text).toContain('  - WAF web ACLs: a fixed monthly fee per web ACL');
  const dear: CostItem = {
    item: 'Something dear',
    quantity: 1,
    unit: 'thing',
    monthly: IDLE_TARGET_DOLLARS,
    note: 'x',
  };
  const over = formatCost([dear, ...idle], []);
  expect(over.withinTarget).toBe(false);
  expect(over.text).toMatch(/total, target \$20\.00: OVER/);
});
