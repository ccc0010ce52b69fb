/**
 * What a deployment costs a month, computed from its synthesized CloudFormation templates and the list
 * prices of bench/prices.ts: at zero traffic (what exists costs money on its own: alarms, secrets, keys,
 * WAF, stored data and its backups, queue pollers, schedules), and per thousand conversations on top.
 * Pure; `npm run cost` (bench/cost.ts) prints it, test/unit/idle-cost.test.ts checks it on a small template.
 */
import type { SynthesizedTemplate } from '../scripts/quotas';
import { PRICES } from './prices';

/** An idle deployment should cost at most this a month. */
export const IDLE_TARGET_DOLLARS = 20;

export interface CostItem {
  item: string;
  quantity: number;
  unit: string;
  monthly: number;
  /** How the figure comes about, and what would lower it. */
  note: string;
}

/** What an idle deployment holds and does, where the templates cannot say. */
export const IDLE_ASSUMPTIONS = {
  /** Data kept in each table with point-in-time recovery (storage and PITR are billed on table size). */
  storedGbPerTable: 0.5,
  /**
   * Lambda's SQS event sources poll an empty queue all the same: five pollers (Lambda's starting number),
   * each a 20-second long poll, three ReceiveMessage calls a minute.
   */
  sqsPollsPerMonth: 5 * 3 * 60 * 24 * 30,
  /** A scheduled run that finds nothing: its lease (a put and a delete), eight due-index shard queries, ~150 ms. */
  scheduledRun: { writeUnits: 2, readUnits: 8 * 0.5, seconds: 0.15 },
  /** Function code and dashboard files kept in S3 (the CDK's asset bucket and the dashboard bucket), GB. */
  assetsGb: 0.5,
};

const MINUTES_PER_MONTH = 60 * 24 * 30;

type Resource = { Type: string; Properties?: Record<string, unknown> };

/** The zero-traffic items of these templates, largest first. */
export function idleCost(templates: SynthesizedTemplate[]): CostItem[] {
  const resources = templates.flatMap(({ body }) =>
    Object.values((JSON.parse(body) as { Resources?: Record<string, Resource> }).Resources ?? {}),
  );
  const ofType = (type: string) => resources.filter((r) => r.Type === type);
  const items: CostItem[] = [];
  const add = (item: string, quantity: number, unit: string, unitPrice: number, note: string) => {
    if (quantity > 0) items.push({ item, quantity, unit, monthly: quantity * unitPrice, note });
  };

  // An alarm is billed per metric it evaluates: a math expression over two metrics costs two.
  const alarmMetrics = ofType('AWS::CloudWatch::Alarm').reduce((sum, alarm) => {
    const metrics = (alarm.Properties?.Metrics as { MetricStat?: unknown }[] | undefined) ?? [];
    return sum + (alarm.Properties?.MetricName ? 1 : metrics.filter((m) => m.MetricStat).length);
  }, 0);
  add(
    'CloudWatch alarms',
    alarmMetrics,
    'alarm metrics',
    PRICES.alarmMetricMonth,
    `${ofType('AWS::CloudWatch::Alarm').length} alarms; errors and throttles of a worker in one math alarm, or fewer alarms on queues that cannot fill, would halve it (the first 10 are in the free tier)`,
  );
  add(
    'Secrets Manager secrets',
    ofType('AWS::SecretsManager::Secret').length,
    'secrets',
    PRICES.secretMonth,
    'the JWT key, platform token and data key as one JSON secret would save two ($0.80), at the price of rotating them together',
  );
  add(
    'KMS customer managed keys',
    ofType('AWS::KMS::Key').length,
    'keys',
    PRICES.kmsKeyMonth,
    "the alarm topic's key (CloudWatch cannot publish to a topic under the AWS-managed key); rotation adds $1 a month for each of its first two years",
  );
  const acls = ofType('AWS::WAFv2::WebACL');
  add('WAF web ACLs', acls.length, 'web ACLs', PRICES.wafWebAclMonth, 'a fixed monthly fee per web ACL');
  add(
    'WAF rules',
    acls.reduce((sum, acl) => sum + ((acl.Properties?.Rules as unknown[] | undefined)?.length ?? 0), 0),
    'rules',
    PRICES.wafRuleMonth,
    'each rule or managed rule group; fewer managed groups lower it',
  );
  const queueSources = ofType('AWS::Lambda::EventSourceMapping').filter(
    (m) => m.Properties?.StartingPosition === undefined,
  );
  add(
    'SQS polling by Lambda queue sources',
    queueSources.length * IDLE_ASSUMPTIONS.sqsPollsPerMonth,
    'ReceiveMessage calls',
    PRICES.sqsRequest,
    `${queueSources.length} queue event sources, each long-polled by Lambda while empty`,
  );
  const tables = [...ofType('AWS::DynamoDB::GlobalTable'), ...ofType('AWS::DynamoDB::Table')];
  const withPitr = tables.filter((t) =>
    JSON.stringify(t.Properties ?? {}).includes('"PointInTimeRecoveryEnabled":true'),
  ).length;
  const gb = IDLE_ASSUMPTIONS.storedGbPerTable;
  add(
    'DynamoDB storage',
    tables.length * gb,
    'GB-months',
    PRICES.dynamoStorageGbMonth,
    `${tables.length} tables at an assumed ${gb} GB each (the first 25 GB are free)`,
  );
  add(
    'DynamoDB point-in-time recovery',
    withPitr * gb,
    'GB-months',
    PRICES.dynamoPitrGbMonth,
    `${withPitr} tables with PITR, billed on table size: grows with the data`,
  );
  const runs = ofType('AWS::Events::Rule').reduce((sum, rule) => {
    const expression = rule.Properties?.ScheduleExpression;
    const rate = typeof expression === 'string' ? /^rate\((\d+) minutes?\)$/.exec(expression) : null;
    return sum + (rate ? MINUTES_PER_MONTH / Number(rate[1]) : 0);
  }, 0);
  const run = IDLE_ASSUMPTIONS.scheduledRun;
  add(
    'Scheduled worker runs',
    runs,
    'runs',
    PRICES.lambdaRequest +
      run.seconds * 0.5 * PRICES.lambdaGbSecond +
      run.writeUnits * PRICES.dynamoWriteUnit +
      run.readUnits * PRICES.dynamoReadUnit,
    'EventBridge schedules are free; each run is a Lambda invocation, its lease and its due-index reads',
  );
  add(
    'S3 storage (function assets, dashboard)',
    IDLE_ASSUMPTIONS.assetsGb,
    'GB-months',
    PRICES.s3StorageGbMonth,
    'the asset zips of every deployed version stay in the CDK bucket until removed',
  );
  const logGroups = ofType('AWS::Logs::LogGroup').length;
  const distributions = ofType('AWS::CloudFront::Distribution').length;
  items.push({
    item: 'Log groups, CloudFront, API Gateway, Lambda, SNS',
    quantity: logGroups + distributions,
    unit: 'resources',
    monthly: 0,
    note: `${logGroups} log groups (retention set: nothing is ingested or kept at zero traffic) and ${distributions} CloudFront distribution(s): billed per request, byte and GB only`,
  });
  return items.sort((a, b) => b.monthly - a.monthly);
}

/**
 * One conversation, as the estimate counts it: its inbound and outbound messages (each with its events'
 * webhook deliveries to one endpoint) and the dashboard's reads while an agent answers.
 */
export const CONVERSATION = {
  inboundMessages: 6,
  outboundMessages: 6,
  apiReads: 20,
  /** Events per message (received or sent, delivered, read, and the conversation's updates), each one webhook delivery. */
  eventsPerMessage: 3,
  /** Bytes kept per conversation (items, index entries, events for their retention). */
  storedBytes: 40_000,
  /** Tokens of one Bedrock analysis, when a model is configured. */
  analysisTokens: { input: 600, output: 150 },
};

/**
 * Dollars per request, from the bench's per-million ceilings (bench/requests.ts, which `npm run bench`
 * asserts on measured requests): a message all-in (the request and what it causes: dispatcher, sender,
 * events) and a list read. A webhook delivery: one 512 MB invocation of ~120 ms, three SQS calls, four
 * write units.
 */
const PER_REQUEST = {
  message: 10 / 1e6,
  read: 2.5 / 1e6,
  delivery:
    PRICES.lambdaRequest + 0.12 * 0.5 * PRICES.lambdaGbSecond + 3 * PRICES.sqsRequest + 4 * PRICES.dynamoWriteUnit,
  /** The local model's analysis: a 1,536 MB invocation share of ~40 ms and two write units. */
  localAnalysis: 0.04 * 1.5 * PRICES.lambdaGbSecond + 2 * PRICES.dynamoWriteUnit,
};

/** What a thousand conversations a month add, by item; Bedrock only when a model is configured. */
export function perThousandConversations(options: { bedrock: boolean; waf: boolean }): CostItem[] {
  const c = CONVERSATION;
  const n = 1000;
  const messages = c.inboundMessages + c.outboundMessages;
  const requests = messages + c.apiReads;
  const items: CostItem[] = [
    {
      item: 'Messages (request, outbox, sender)',
      quantity: n * messages,
      unit: 'messages',
      monthly: n * messages * PER_REQUEST.message,
      note: `${messages} per conversation at the bench's all-in ceiling of $10 per million`,
    },
    {
      item: 'Dashboard and API reads',
      quantity: n * c.apiReads,
      unit: 'requests',
      monthly: n * c.apiReads * PER_REQUEST.read,
      note: `${c.apiReads} per conversation at the bench's list ceiling of $2.50 per million`,
    },
    {
      item: 'Webhook deliveries',
      quantity: n * messages * c.eventsPerMessage,
      unit: 'deliveries',
      monthly: n * messages * c.eventsPerMessage * PER_REQUEST.delivery,
      note: `${c.eventsPerMessage} events per message to one endpoint`,
    },
    {
      item: options.bedrock ? 'Bedrock analyses' : 'Local-model analyses',
      quantity: n * c.inboundMessages,
      unit: 'analyses',
      monthly:
        n *
        c.inboundMessages *
        (options.bedrock
          ? c.analysisTokens.input * PRICES.bedrockInputToken + c.analysisTokens.output * PRICES.bedrockOutputToken
          : PER_REQUEST.localAnalysis),
      note: options.bedrock
        ? `${c.analysisTokens.input} input and ${c.analysisTokens.output} output tokens each (Claude 3.5 Haiku)`
        : 'the bundled model, in the stream-reactions worker',
    },
    {
      item: 'Stored data and its PITR (first month)',
      quantity: (n * c.storedBytes) / 1e9,
      unit: 'GB-months',
      monthly: ((n * c.storedBytes) / 1e9) * (PRICES.dynamoStorageGbMonth + PRICES.dynamoPitrGbMonth),
      note: 'grows each month the data is kept',
    },
  ];
  if (options.waf)
    items.push({
      item: 'WAF requests',
      quantity: n * requests,
      unit: 'requests',
      monthly: n * requests * PRICES.wafRequest,
      note: 'every API request inspected',
    });
  return items.sort((a, b) => b.monthly - a.monthly);
}

export const total = (items: CostItem[]): number => items.reduce((sum, i) => sum + i.monthly, 0);

const dollars = (n: number) => `$${n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`;

/** The report `npm run cost` prints: largest items first, the total against the target, and what would lower it. */
export function formatCost(idle: CostItem[], perThousand: CostItem[]): { text: string; withinTarget: boolean } {
  const idleTotal = total(idle);
  const withinTarget = idleTotal <= IDLE_TARGET_DOLLARS;
  const rows = (items: CostItem[]) =>
    items.map(
      (i) =>
        `  ${dollars(i.monthly).padStart(9)}  ${i.item} (${Number(i.quantity.toPrecision(4)).toLocaleString('en-US')} ${i.unit})`,
    );
  const lowering = idle
    .filter((i) => i.monthly > 0)
    .slice(0, 3)
    .map((i) => `  - ${i.item}: ${i.note}`);
  const text = [
    `Idle deployment, per month (${PRICES.source}):`,
    ...rows(idle),
    `  ${dollars(idleTotal).padStart(9)}  total, target ${dollars(IDLE_TARGET_DOLLARS)}: ${withinTarget ? 'OK' : 'OVER'}`,
    '',
    'What would bring it lower (largest items first):',
    ...lowering,
    '',
    'On top, per thousand conversations a month:',
    ...rows(perThousand),
    `  ${dollars(total(perThousand)).padStart(9)}  total`,
  ].join('\n');
  return { text, withinTarget };
}
