/**
 * `npm run ops -- <command>`: operator tooling for webhook deliveries.
 *
 *   peek-dlq [--max N]                      show dead letters without consuming them
 *   failed [--tenant ID] [--limit N]        list failed deliveries (all tenants, or one)
 *   replay --tenant ID --delivery ID        replay one delivery
 *   replay-failed [--tenant ID] [--since ISO]   replay every failed delivery (newest first)
 *   redrive                                 replay the deliveries of dead letters the consumer left
 *
 * Target: the local runtime (`npm start` writes .local/runtime.json), or with --stack a deployed
 * MessagingStateful stack, whose outputs name the tables and queues (usual AWS credentials).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { QUEUES, TABLES } from '../lib/resources';
import { RUNTIME_FILE } from '../lib/local/runtime';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    stack: { type: 'string' },
    tenant: { type: 'string' },
    delivery: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string', default: '50' },
    max: { type: 'string', default: '10' },
  },
});

async function configure(): Promise<string> {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  if (values.stack) {
    const out = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: values.stack }));
    const outputs = Object.fromEntries((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
    for (const spec of Object.values(TABLES)) process.env[spec.envVar] = outputs[`${spec.id}TableName`];
    for (const spec of Object.values(QUEUES)) process.env[spec.envVar] = outputs[`${spec.id}QueueUrl`];
    return `stack ${values.stack}`;
  }
  if (!existsSync(RUNTIME_FILE)) throw new Error('No local runtime found (start it with npm start), and no --stack given.');
  const local = JSON.parse(readFileSync(RUNTIME_FILE, 'utf8'));
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: local.dynamoEndpoint, AWS_ENDPOINT_URL_SQS: local.sqsEndpoint,
  });
  for (const [key, spec] of Object.entries(TABLES)) process.env[spec.envVar] = local.tables[key];
  for (const [key, spec] of Object.entries(QUEUES)) process.env[spec.envVar] = local.queues[key].url;
  return `local runtime at ${local.url}`;
}

const progress = (done: number, label: string) => {
  if (done % 100 === 0) process.stderr.write(`  … ${done} ${label}\n`);
};

async function main() {
  const command = positionals[0];
  const target = await configure();
  console.error(`ops: ${command ?? '(none)'} on ${target}`);
  const { sqsClient } = await import('../functions/platform/queue');
  const { queueUrl } = await import('../functions/platform/config');
  const store = await import('../functions/webhooks/store');
  const { replay, replayIfFinished } = await import('../functions/webhooks/replay');

  switch (command) {
    case 'peek-dlq': {
      // VisibilityTimeout 0: the messages stay in the queue for the consumer.
      const out = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl('webhookDeliveryDlq'), MaxNumberOfMessages: Math.min(10, Number(values.max)), VisibilityTimeout: 0, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'] }));
      for (const m of out.Messages ?? []) console.log(JSON.stringify({ message_id: m.MessageId, receive_count: m.Attributes?.ApproximateReceiveCount, body: JSON.parse(m.Body ?? '{}') }));
      console.error(`${out.Messages?.length ?? 0} dead letter(s) shown`);
      return;
    }
    case 'failed': {
      const limit = Math.min(100, Number(values.limit));
      const page = values.tenant ? await store.listDeliveries(values.tenant, { status: 'failed' }, { limit }) : await store.listAllFailed({ limit });
      for (const d of page.items) console.log(JSON.stringify({ id: d.id, tenant_id: d.tenant_id, webhook_id: d.webhook_id, event_type: d.event_type, failed_at: d.failed_at, attempts: d.attempts.length, reason: d.failure_reason }));
      console.error(`${page.items.length} failed deliver${page.items.length === 1 ? 'y' : 'ies'}${page.hasMore ? ' (more: raise --limit)' : ''}`);
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
        const out = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl('webhookDeliveryDlq'), MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        const messages = out.Messages ?? [];
        if (messages.length === 0) break;
        for (const m of messages) {
          const body = JSON.parse(m.Body ?? '{}') as { tenant_id?: string; delivery_id?: string };
          const delivery = body.tenant_id && body.delivery_id ? await store.getDelivery(body.tenant_id, body.delivery_id) : undefined;
          if (delivery) await replayIfFinished(delivery, new Date());
          await sqsClient().send(new DeleteMessageCommand({ QueueUrl: queueUrl('webhookDeliveryDlq'), ReceiptHandle: m.ReceiptHandle }));
          progress(++moved, 'redriven');
        }
      }
      console.error(`${moved} dead letter(s) redriven`);
      return;
    }
    default:
      console.error('usage: npm run ops -- peek-dlq | failed [--tenant ID] | replay --tenant ID --delivery ID | replay-failed [--tenant ID] [--since ISO] | redrive   [--stack MessagingStateful]');
      process.exitCode = 2;
  }
}

main().catch((error) => {
  console.error(`ops: ${(error as Error).message}`);
  process.exitCode = 1;
});
