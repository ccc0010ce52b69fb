/**
 * `npm run ops -- <command>`: operator tooling for deploy preflight checks, webhook deliveries, failed stream batches and data upgrades. The
 * commands and options are in USAGE below (`npm run ops -- --help` prints it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { QUEUES, TABLES } from '../catalog/resources';
import { RUNTIME_FILE } from '../local/runtime';
import { lambdaContext } from '../local/context';
import { toLambdaRecord } from '../local/pollers';
import {
  STREAM_RETENTION_MS,
  functionNameOf,
  readFailedRecords,
  type StreamFailureRecord,
} from '../local/stream-failures';
import { WORKERS, type WorkerDef } from '../catalog/workers';
import { matchesFilter } from '../catalog/event-filters';

const USAGE = `usage: npm run ops -- <command> [options]

Commands:
  preflight [-c key=value ...]                read-only checks of the AWS account (credentials and region as
                                              for cdk deploy) before a deploy with these context values:
                                              bootstrap, Lambda concurrency, API Gateway's account role, WAF
                                              for CloudFront, Bedrock model access, quotas; exits 1 on a failure
  peek-dlq [--max N]                          show dead letters without consuming them (normally none)
  overdue [--limit N]                         list overdue work of every tenant, oldest first: webhook deliveries
                                              and queued outbound messages the sweepers are taking over (what
                                              the overdue-work alarms measure)
  failed [--tenant ID] [--limit N]            list failed deliveries (all tenants, or one)
  replay --tenant ID --delivery ID            replay one delivery
  replay-failed [--tenant ID] [--since ISO]   replay every failed delivery (newest first), with progress
  redrive                                     replay the deliveries of dead letters the consumer left
  stream-failures [--max N]                   show stream batches the workers gave up on, without consuming them
  replay-stream-failures [--worker ID]        read those records back from the stream and hand them to the worker again
  reseal [--data-key-secret ARN]              re-seal stored secrets with the current data key (after a rotation)
  reindex-conversations [--dry-run]           rewrite conversations stored before the five conversation indexes
                                              or snoozed or assigned before their indexes
                                              in today's shape, so lists show them (once, after upgrading);
                                              --dry-run only counts them
  whatsapp-version [--graph-version vN.0]     whether the Graph API version (WHATSAPP_GRAPH_VERSION, or the
                                              default) is current, retiring within 90 days, or retired; exit 1
                                              unless current (needs no target)
  reindex-customers [--dry-run]               put named customers stored before the name search, or before
                                              their later words were searched, into it (once, after
                                              upgrading); --dry-run only counts them

Target: the local runtime (\`npm start\` writes .local/runtime.json, or LOCAL_RUNTIME_FILE), or with
  --stack NAME              a deployed MessagingStateful stack, whose outputs name the tables and queues
  --api-stack NAME          the API stack whose outputs name the worker functions (default MessagingApi)
(AWS targets use the usual AWS credentials and region.)

  -h, --help                print this help`;

const COMMANDS = [
  'preflight',
  'peek-dlq',
  'overdue',
  'failed',
  'replay',
  'replay-failed',
  'redrive',
  'stream-failures',
  'replay-stream-failures',
  'reseal',
  'reindex-conversations',
  'reindex-customers',
  'whatsapp-version',
];

/** Usage on stdout and exit 0 when asked for; on stderr and exit 1 after a mistake. No stack trace either way. */
function usage(mistake?: string): never {
  if (mistake === undefined) {
    console.log(USAGE);
    process.exit(0);
  }
  console.error(`ops: ${mistake}\n\n${USAGE}`);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      stack: { type: 'string' },
      'api-stack': { type: 'string', default: 'MessagingApi' },
      worker: { type: 'string' },
      'data-key-secret': { type: 'string' },
      tenant: { type: 'string' },
      delivery: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string', default: '50' },
      max: { type: 'string', default: '10' },
      'dry-run': { type: 'boolean', default: false },
      context: { type: 'string', short: 'c', multiple: true },
      'graph-version': { type: 'string' },
    },
  });
} catch (error) {
  usage((error as Error).message.split('. ')[0]);
}
const { values, positionals } = parsed;
if (values.help || positionals.length === 0) usage();
if (!COMMANDS.includes(positionals[0]!)) usage(`unknown command: ${positionals[0]}`);

if (positionals[0] === 'whatsapp-version') {
  const { graphVersionStatus } = await import('../functions/channels/graph-errors');
  const { graphVersion } = await import('../functions/channels/whatsapp');
  const version = values['graph-version'] ?? graphVersion();
  const status = graphVersionStatus(version, new Date());
  const says = {
    current: `Graph API ${version} is current.`,
    sunsetting: `Graph API ${version} is retired by Meta on ${'expires' in status ? status.expires : ''} (${'daysLeft' in status ? status.daysLeft : ''} days): set WHATSAPP_GRAPH_VERSION (-c whatsappGraphVersion=…) to a newer one and deploy.`,
    expired: `Graph API ${version} was retired by Meta on ${'expires' in status ? status.expires : ''}: WhatsApp calls fail. Set a current version and deploy.`,
    unknown: `Graph API ${version} is not a version this release knows: check it against Meta's changelog.`,
  }[status.status];
  console.log(says);
  process.exit(status.status === 'current' ? 0 : 1);
}

const stackOutputs = async (stackName: string): Promise<Record<string, string | undefined>> => {
  const out = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  return Object.fromEntries((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey ?? '', o.OutputValue]));
};

async function configure(): Promise<string> {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  // Replayed workers log here too: warnings (why a record failed) and worse.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  if (values.stack) {
    const outputs = await stackOutputs(values.stack);
    for (const spec of Object.values(TABLES)) process.env[spec.envVar] = outputs[`${spec.id}TableName`];
    for (const spec of Object.values(QUEUES)) process.env[spec.envVar] = outputs[`${spec.id}QueueUrl`];
    return `stack ${values.stack}`;
  }
  if (!existsSync(RUNTIME_FILE))
    throw new Error('No local runtime found (start it with npm start), and no --stack given.');
  let local: {
    url: string;
    dynamoEndpoint: string;
    sqsEndpoint: string;
    tables: Record<string, string>;
    queues: Record<string, { url: string }>;
  };
  try {
    local = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8')) as typeof local;
    if (!local.dynamoEndpoint || !local.sqsEndpoint || Object.keys(QUEUES).some((key) => !local.queues?.[key]?.url))
      throw new Error('incomplete');
  } catch {
    throw new Error(`${RUNTIME_FILE} is not a runtime file of this version: restart npm start.`);
  }
  targetKind = 'local';
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: local.dynamoEndpoint,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: local.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: local.sqsEndpoint,
  });
  for (const [key, spec] of Object.entries(TABLES)) process.env[spec.envVar] = local.tables[key];
  for (const [key, spec] of Object.entries(QUEUES)) process.env[spec.envVar] = local.queues[key]?.url;
  return `local runtime at ${local.url}`;
}

const progress = (done: number, label: string) => {
  if (done % 100 === 0) process.stderr.write(`  … ${done} ${label}\n`);
};

/**
 * Synthesizes the app with the deploy's context values (cdk.json's, then each -c key=value) and checks
 * the account against it; prints every check and exits 1 if one failed.
 */
async function preflight() {
  const { appFacts, formatChecks, preflightChecks } = await import('./preflight');
  const { gatherAccountFacts, regionOfCredentials } = await import('./preflight-aws');
  const { synthesizeTemplates } = await import('./synthesized');
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, string>;
  };
  const context: Record<string, string> = { ...cdkJson.context };
  for (const pair of values.context ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) usage(`-c takes key=value (got ${pair})`);
    context[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const region = await regionOfCredentials();
  process.env.CDK_DEFAULT_REGION ??= region;
  console.error(`ops: preflight in ${region}: synthesizing the app (offline, about 20 s)…`);
  const app = appFacts(synthesizeTemplates(context), context);
  const { text, ready } = formatChecks(preflightChecks(app, await gatherAccountFacts(region, app)));
  console.log(text);
  if (!ready) process.exitCode = 1;
}

async function main() {
  const command = positionals[0];
  if (command === 'preflight') return preflight();
  const target = await configure();
  console.error(`ops: ${command} on ${target}`);
  const { sqsClient } = await import('../functions/platform/queue');
  const { queueUrl } = await import('../functions/platform/config');
  const store = await import('../functions/webhooks/store');
  const { replay, replayIfFinished } = await import('../functions/webhooks/service');

  switch (command) {
    case 'peek-dlq': {
      // VisibilityTimeout 0: the messages stay in the queue for the consumer.
      const out = await sqsClient().send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl('webhookDeliveryDlq'),
          MaxNumberOfMessages: Math.min(10, Number(values.max)),
          VisibilityTimeout: 0,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['All'],
        }),
      );
      for (const m of out.Messages ?? [])
        console.log(
          JSON.stringify({
            message_id: m.MessageId,
            receive_count: m.Attributes?.ApproximateReceiveCount,
            body: JSON.parse(m.Body ?? '{}') as unknown,
          }),
        );
      console.error(`${out.Messages?.length ?? 0} dead letter(s) shown`);
      return;
    }
    case 'overdue': {
      const limit = Math.min(100, Number(values.limit));
      const { sweepGraceSeconds } = await import('../functions/webhooks/webhook');
      const { overdueSends } = await import('../functions/conversations/send-store');
      const now = new Date();
      const secondsSince = (iso: string) => Math.round((now.getTime() - Date.parse(iso)) / 1000);
      const graceMs = sweepGraceSeconds(process.env.WEBHOOK_SWEEP_GRACE_SECONDS) * 1000;
      const deliveries = (await store.overdueDeliveries(new Date(now.getTime() - graceMs), now, limit))
        .map((d) => ({
          kind: 'webhook_delivery',
          tenant_id: d.tenant_id,
          id: d.id,
          webhook_id: d.webhook_id,
          event_type: d.event_type,
          attempts: d.cycle_attempts,
          why: d.lease_ended ? 'the worker making its attempt stopped' : 'its queued attempt was lost',
          overdue_since: d.overdue_since,
          overdue_seconds: secondsSince(d.overdue_since),
        }))
        .sort((a, b) => b.overdue_seconds - a.overdue_seconds)
        .slice(0, limit);
      const messages = (await overdueSends(now, limit))
        .map((m) => ({
          kind: 'outbound_message',
          tenant_id: m.ref.tenant_id,
          conversation_id: m.ref.conversation_id,
          id: m.ref.message_id,
          channel: m.message.channel,
          why:
            m.leaseUntil === null
              ? 'its hand-off to the sender was lost'
              : 'its sender stopped mid-send: the outcome is unknown',
          queued_at: m.message.created_at,
          queued_seconds: secondsSince(m.message.created_at),
        }))
        .sort((a, b) => b.queued_seconds - a.queued_seconds)
        .slice(0, limit);
      for (const line of [...deliveries, ...messages]) console.log(JSON.stringify(line));
      console.error(
        `${deliveries.length} overdue webhook deliver${deliveries.length === 1 ? 'y' : 'ies'}` +
          (deliveries[0] ? ` (oldest overdue ${deliveries[0].overdue_seconds} s)` : '') +
          `, ${messages.length} overdue outbound message${messages.length === 1 ? '' : 's'}` +
          (messages[0] ? ` (oldest queued ${messages[0].queued_seconds} s)` : '') +
          '; the sweepers take them over every minute (docs/operations.md, Overdue work)',
      );
      return;
    }
    case 'failed': {
      const limit = Math.min(100, Number(values.limit));
      const page = values.tenant
        ? await store.listDeliveries(values.tenant, { status: 'failed' }, { limit })
        : await store.listAllFailed({ limit });
      for (const d of page.items)
        console.log(
          JSON.stringify({
            id: d.id,
            tenant_id: d.tenant_id,
            webhook_id: d.webhook_id,
            event_type: d.event_type,
            failed_at: d.failed_at,
            attempts: d.attempts.length,
            reason: d.failure_reason,
          }),
        );
      console.error(
        `${page.items.length} failed deliver${page.items.length === 1 ? 'y' : 'ies'}${page.hasMore ? ' (more: raise --limit)' : ''}`,
      );
      return;
    }
    case 'replay': {
      if (!values.tenant || !values.delivery) throw new Error('replay needs --tenant and --delivery');
      const delivery = await store.getDelivery(values.tenant, values.delivery);
      if (!delivery) throw new Error('no such delivery');
      console.log(JSON.stringify({ delivery_id: delivery.id, cycle: await replay(delivery, new Date()) }));
      return;
    }
    case 'replay-failed': {
      let done = 0;
      let skipped = 0;
      let cursor: string | undefined;
      do {
        const page = values.tenant
          ? await store.listDeliveries(values.tenant, { status: 'failed' }, { limit: 100, cursor })
          : await store.listAllFailed({ limit: 100, cursor });
        for (const d of page.items) {
          if (values.since && (d.failed_at ?? '') < values.since) continue;
          if (await replayIfFinished(d, new Date())) progress(++done, 'replayed');
          else skipped++;
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      console.error(`${done} deliveries replayed${skipped ? `, ${skipped} skipped (no longer failed)` : ''}`);
      return;
    }
    case 'redrive': {
      // The DLQ consumer normally drains the DLQ into the failed view; what is left here, it could not
      // process. Each one's delivery is replayed (a new cycle with the full schedule), then removed.
      let moved = 0;
      for (;;) {
        const out = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl('webhookDeliveryDlq'),
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
          }),
        );
        const messages = out.Messages ?? [];
        if (messages.length === 0) break;
        for (const m of messages) {
          const body = JSON.parse(m.Body ?? '{}') as { tenant_id?: string; delivery_id?: string };
          const delivery =
            body.tenant_id && body.delivery_id ? await store.getDelivery(body.tenant_id, body.delivery_id) : undefined;
          if (delivery) await replayIfFinished(delivery, new Date());
          await sqsClient().send(
            new DeleteMessageCommand({ QueueUrl: queueUrl('webhookDeliveryDlq'), ReceiptHandle: m.ReceiptHandle }),
          );
          progress(++moved, 'redriven');
        }
      }
      console.error(`${moved} dead letter(s) redriven`);
      return;
    }
    case 'stream-failures': {
      // VisibilityTimeout 0: a look, not a take.
      const out = await sqsClient().send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl('streamFailures'),
          MaxNumberOfMessages: Math.min(10, Number(values.max)),
          VisibilityTimeout: 0,
          WaitTimeSeconds: 1,
        }),
      );
      for (const m of out.Messages ?? []) console.log(JSON.stringify(describeFailure(m)));
      console.error(`${out.Messages?.length ?? 0} failed stream batch(es) shown`);
      return;
    }
    case 'replay-stream-failures': {
      const outcomes = await replayStreamFailures(await workerInvoker());
      const count = (outcome: string) => outcomes.filter((o) => o === outcome).length;
      console.error(
        `${count('replayed')} replayed, ${count('failed')} failed, ${count('expired')} past the stream's retention, ${count('skipped')} skipped`,
      );
      if (count('failed') + count('expired') > 0) process.exitCode = 1;
      return;
    }
    case 'reseal': {
      // The data key: DATA_KEY and DATA_KEY_PREVIOUS as `npm start` had them, or the deployed secret.
      if (values['data-key-secret']) process.env.DATA_KEY_SECRET_ARN = values['data-key-secret'];
      if (!process.env.DATA_KEY && !process.env.DATA_KEY_SECRET_ARN)
        throw new Error('reseal needs DATA_KEY (and DATA_KEY_PREVIOUS), or --data-key-secret ARN');
      const { tableName } = await import('../functions/platform/config');
      const { resealTable } = await import('./reseal');
      const result = await resealTable(tableName('main'), ['pk', 'sk'], (n) => progress(n, 'values'));
      for (const failure of result.failed) console.log(JSON.stringify(failure));
      console.error(
        `${result.resealed} re-sealed, ${result.current} already current, ${result.raced} changed meanwhile, ${result.failed.length} failed`,
      );
      if (result.failed.length > 0) process.exitCode = 1;
      return;
    }
    case 'reindex-conversations':
    case 'reindex-customers': {
      const dryRun = values['dry-run'] === true;
      const [counts, what] =
        command === 'reindex-conversations'
          ? [await reindexConversations(dryRun), 'conversation and tag item(s) in the old shape']
          : [await reindexCustomers(dryRun), 'named customer(s) outside the name search'];
      console.log(JSON.stringify({ ...counts, dry_run: dryRun }));
      console.error(
        dryRun
          ? `${counts.scanned} ${what}; nothing written (dry run)`
          : `${counts.scanned} ${what}: ${counts.rewritten} rewritten, ${counts.skipped} skipped (already current or changed meanwhile)`,
      );
      return;
    }
    default:
      usage(`unknown command: ${command}`);
  }
}

const STREAM_WORKERS = WORKERS.filter((w) => w.source.kind === 'stream');
const pascal = (id: string) => id.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());

function parseFailure(message: Message): StreamFailureRecord | undefined {
  try {
    const record = JSON.parse(message.Body ?? '') as StreamFailureRecord;
    return record?.DDBStreamBatchInfo?.streamArn ? record : undefined;
  } catch {
    return undefined;
  }
}

function describeFailure(message: Message) {
  const record = parseFailure(message);
  if (!record) return { message_id: message.MessageId, unrecognised: message.Body?.slice(0, 200) };
  const batch = record.DDBStreamBatchInfo;
  const firstAt = batch.approximateArrivalOfFirstRecord ?? record.timestamp;
  return {
    message_id: message.MessageId,
    function: functionNameOf(record.requestContext.functionArn) ?? null,
    condition: record.requestContext.condition,
    failed_at: record.timestamp,
    stream_arn: batch.streamArn,
    shard_id: batch.shardId,
    start_sequence_number: batch.startSequenceNumber,
    end_sequence_number: batch.endSequenceNumber,
    batch_size: batch.batchSize,
    replayable_until: new Date(Date.parse(firstAt) + STREAM_RETENTION_MS).toISOString(),
  };
}

type Invoke = (worker: WorkerDef, records: DynamoDBRecord[]) => Promise<DynamoDBBatchResponse | undefined>;

/**
 * How a worker is invoked and how a failure names it. In AWS: the deployed function (Lambda names it in
 * the failure record; the API stack's outputs map names to workers). Locally: the handler module, in
 * this process, with the environment configure() set, and the worker id as its function name.
 */
async function workerInvoker(): Promise<{ invoke: Invoke; workerNamed: (name: string) => WorkerDef | undefined }> {
  if (!values.stack) {
    return {
      workerNamed: (name) => STREAM_WORKERS.find((w) => w.id === name),
      invoke: async (worker, records) => {
        const mod = (await import(`../functions/${worker.handler}.ts`)) as {
          handler: (event: unknown, context: unknown) => Promise<DynamoDBBatchResponse | undefined>;
        };
        return mod.handler({ Records: records }, lambdaContext(worker.id));
      },
    };
  }
  const outputs = await stackOutputs(values['api-stack'] ?? 'MessagingApi');
  const functionName = (worker: WorkerDef) => outputs[`${pascal(worker.id)}FunctionName`];
  const lambda = new LambdaClient({});
  return {
    workerNamed: (name) => STREAM_WORKERS.find((w) => functionName(w) === name),
    invoke: async (worker, records) => {
      const name = functionName(worker);
      if (!name) throw new Error(`stack ${values['api-stack']} has no output naming the function of ${worker.id}`);
      const out = await lambda.send(
        new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify({ Records: records })) }),
      );
      const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
      if (out.FunctionError) throw new Error(`${name} failed: ${payload.slice(0, 500)}`);
      return payload ? ((JSON.parse(payload) as DynamoDBBatchResponse | null) ?? undefined) : undefined;
    },
  };
}

/**
 * Each failed batch: its records are read back from the stream (Lambda's record holds only the range),
 * narrowed to what the worker subscribes to, and handed to it in batches of its usual size. A batch
 * that all goes through leaves the queue; any other stays for a later try, and the command fails.
 */
async function replayStreamFailures({
  invoke,
  workerNamed,
}: Awaited<ReturnType<typeof workerInvoker>>): Promise<string[]> {
  const { sqsClient } = await import('../functions/platform/queue');
  const { queueUrl } = await import('../functions/platform/config');
  const url = queueUrl('streamFailures');
  const streams = new DynamoDBStreamsClient({});
  const taken: Message[] = [];
  const done = new Set<Message>();
  const outcomes: string[] = [];
  try {
    // Everything is taken first and released at the end, so nothing is met twice in one run.
    for (;;) {
      const out = await sqsClient().send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 300,
        }),
      );
      if (!out.Messages?.length) break;
      taken.push(...out.Messages);
    }
    for (const message of taken) {
      const record = parseFailure(message);
      const report = { ...describeFailure(message), worker: null as string | null, records: 0 };
      let outcome: string;
      let error: string | undefined;
      try {
        if (!record) throw new Error('not a stream failure record');
        const named = functionNameOf(record.requestContext.functionArn);
        const raw = await readFailedRecords(streams, record.DDBStreamBatchInfo);
        const records = raw.map((r) => toLambdaRecord(r, record.DDBStreamBatchInfo.streamArn));
        // A record without a function name (an older local runtime) goes to every worker that subscribes to its records.
        const workers = named
          ? [workerNamed(named)].filter((w): w is WorkerDef => !!w)
          : STREAM_WORKERS.filter((w) => records.some((r) => subscribes(w, r)));
        if (workers.length === 0) throw new Error(`no stream worker matches ${named ?? 'these records'}`);
        report.worker = workers.map((w) => w.id).join(',');
        if (values.worker && !workers.some((w) => w.id === values.worker)) {
          outcome = 'skipped';
        } else {
          for (const worker of workers.filter((w) => !values.worker || w.id === values.worker)) {
            const selected = records.filter((r) => subscribes(worker, r));
            report.records += selected.length;
            const size = worker.source.kind === 'stream' ? worker.source.batchSize : 100;
            for (let i = 0; i < selected.length; i += size) {
              const result = await invoke(worker, selected.slice(i, i + size));
              const failures = result?.batchItemFailures?.length ?? 0;
              if (failures > 0) throw new Error(`${worker.id} failed ${failures} record(s) again`);
            }
          }
          outcome = 'replayed';
        }
      } catch (e) {
        const name = (e as Error).name;
        outcome = name === 'TrimmedDataAccessException' || name === 'ExpiredIteratorException' ? 'expired' : 'failed';
        error = (e as Error).message;
      }
      if (outcome === 'replayed') {
        await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
        done.add(message);
      }
      outcomes.push(outcome);
      console.log(JSON.stringify({ ...report, outcome, ...(error ? { error } : {}) }));
    }
  } finally {
    for (const message of taken.filter((m) => !done.has(m))) {
      await sqsClient().send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: message.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    }
    streams.destroy();
  }
  return outcomes;
}

/**
 * Conversation and tag items written before the five conversation indexes carry none of their keys
 * (c_act among them), so no list finds them; conversations snoozed before the snooze waker are not in the
 * due index (no gsi5pk), so they never wake; conversations assigned before the assignee index are not in
 * it (no c_asg). A Scan (an operator command, never a request path) returns only those: conversation
 * items (`CONV#<id>#~`; message sks contain `#MSG#`) and tag items without c_act, snoozed conversations
 * without gsi5pk, and assigned unresolved ones without c_asg. Each is rewritten whole, in the item the
 * store itself writes, on condition that it is still as found (no c_act; or the version read): a second
 * run, or a write by the API meanwhile, makes it a skip, never an overwrite.
 */
async function reindexConversations(dryRun: boolean) {
  const { db } = await import('../functions/platform/db');
  const { tableName } = await import('../functions/platform/config');
  const { currentConversationItem } = await import('../functions/conversations/store');
  return rewriteScanned(
    {
      FilterExpression:
        '(attribute_not_exists(c_act) AND ((begins_with(sk, :conv) AND NOT contains(sk, :msg)) OR begins_with(sk, :tag)))' +
        ' OR (begins_with(sk, :conv) AND #c.#status = :snoozed AND attribute_not_exists(gsi5pk))' +
        ' OR (begins_with(sk, :conv) AND attribute_type(#c.#assignee, :string) AND #c.#status <> :resolved' +
        ' AND attribute_not_exists(c_asg))',
      ExpressionAttributeNames: { '#c': 'conversation', '#status': 'status', '#assignee': 'assignee_id' },
      ExpressionAttributeValues: {
        ':conv': 'CONV#',
        ':msg': '#MSG#',
        ':tag': 'CONVTAG#',
        ':snoozed': 'snoozed',
        ':string': 'S',
        ':resolved': 'resolved',
      },
    },
    (item) => {
      const current = currentConversationItem(item);
      if (!current) {
        // Not a conversation or tag item after all, or its key does not match its conversation: left alone.
        console.error(`  left alone (not a conversation item): ${String(item.pk)} ${String(item.sk)}`);
        return undefined;
      }
      const version = (item.conversation as { version?: number } | undefined)?.version;
      return () =>
        db().send(
          new PutCommand({
            TableName: tableName('main'),
            Item: current,
            ...(item.c_act === undefined
              ? { ConditionExpression: 'attribute_not_exists(c_act)' }
              : {
                  ConditionExpression: '#c.#version = :version',
                  ExpressionAttributeNames: { '#c': 'conversation', '#version': 'version' },
                  ExpressionAttributeValues: { ':version': version },
                }),
          }),
        );
    },
    dryRun,
  );
}

/**
 * Customers stored before the name search carry no name index keys (gsi1pk), and those stored before later
 * words were searched no `name_words` nor entries for them, so `?name=` misses them. A Scan (an operator
 * command, never a request path) returns the named ones lacking either; each is indexed as it is now, on
 * condition that its name is still the one read (a rename meanwhile has indexed it).
 */
async function reindexCustomers(dryRun: boolean) {
  const { customerFromItem, reindexCustomerName } = await import('../functions/customers/store');
  return rewriteScanned(
    {
      FilterExpression:
        'begins_with(sk, :cus) AND attribute_type(#name, :string) AND size(#name) > :zero AND ' +
        '(attribute_not_exists(gsi1pk) OR attribute_not_exists(name_words))',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':cus': 'CUS#', ':string': 'S', ':zero': 0 },
    },
    (item) => () => reindexCustomerName(customerFromItem(item)),
    dryRun,
  );
}

/**
 * Scans the Main table for the items `filter` picks and makes each one's conditional write (`writeOf`
 * gives it, or undefined to leave the item alone); a failed condition (changed meanwhile) is a skip.
 */
async function rewriteScanned(
  filter: Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
  writeOf: (item: Record<string, unknown>) => (() => Promise<unknown>) | undefined,
  dryRun: boolean,
) {
  const { conditionalWrite, db, transactionConflicted } = await import('../functions/platform/db');
  const { tableName } = await import('../functions/platform/config');
  const skipConflict = (error: unknown) => {
    if (transactionConflicted(error)) return false;
    throw error;
  };
  const counts = { scanned: 0, rewritten: 0, skipped: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({ TableName: tableName('main'), ...filter, ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      counts.scanned++;
      const write = writeOf(item);
      if (!write) counts.skipped++;
      // A write that met another in flight on the same item is a skip too: that one has rewritten it.
      else if (!dryRun && (await conditionalWrite(write).catch(skipConflict)))
        progress(++counts.rewritten, 'rewritten');
      else if (!dryRun) counts.skipped++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return counts;
}

const subscribes = (worker: WorkerDef, record: DynamoDBRecord) =>
  worker.source.kind === 'stream' && worker.source.filters.some((pattern) => matchesFilter(record, pattern));

/** Where configure() pointed us, for error messages. */
let targetKind: 'local' | 'aws' = 'aws';

/** One line for an error, without a stack trace: what failed and what to check. */
function describeError(error: unknown): string {
  const e = error as Error & { code?: string; errors?: Error[] };
  const code = e.code ?? e.errors?.[0]?.['code' as keyof Error];
  const message = e.message || e.errors?.[0]?.message || e.name || String(error);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') {
    return targetKind === 'local'
      ? `cannot reach the local runtime (${message}): is npm start still running? ${RUNTIME_FILE} may be left over from one that stopped.`
      : `cannot reach AWS (${message}): check the network and AWS_REGION.`;
  }
  if (e.name === 'CredentialsProviderError')
    return `no AWS credentials (${message}): set AWS_PROFILE or the AWS_* variables, or use the local runtime (no --stack).`;
  if (/region is missing/i.test(message)) return 'no AWS region: set AWS_REGION (or a region in your AWS profile).';
  return message;
}

main().catch((error) => {
  console.error(`ops: ${describeError(error)}`);
  process.exit(1);
});
