/**
 * The one definition of the DynamoDB tables and SQS queues. The CDK stateful stack and the local
 * bootstrap both build their resources from these specs, so the two can never drift apart.
 */
/**
 * A global secondary index. `include` lists the only non-key attributes it projects (INCLUDE); without
 * it the index projects every attribute (ALL). A smaller projection makes every write to the index and
 * every page read from it cheaper.
 */
export interface IndexSpec {
  name: string;
  partitionKey: string;
  sortKey: string;
  include?: readonly string[];
}

export interface TableSpec {
  /** Logical id, used for the CDK construct id and the local table name. */
  id: 'Main' | 'Ephemeral' | 'Realtime';
  /** Environment variable through which handlers learn the physical name. */
  envVar: string;
  partitionKey: string;
  sortKey?: string;
  indexes: IndexSpec[];
  ttlAttribute: string;
  /** Stream view for the transactional outbox, if the table has one. */
  stream?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES';
}

export const TABLES = {
  /**
   * Every lasting record: tenants, users, sessions, API keys, channels, customers, conversations and
   * messages, bookings, events, webhook endpoints and deliveries.
   */
  main: {
    id: 'Main',
    envVar: 'MAIN_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [
      // Overloaded indexes: each feature's store documents what it keeps in them.
      ...[1, 2, 3, 4, 5].map((n) => ({ name: `gsi${n}`, partitionKey: `gsi${n}pk`, sortKey: `gsi${n}sk` })),
      // Conversation lists (functions/conversations/store.ts): only conversation and tag items carry these
      // keys, and only the `conversation` map (what a list returns) is projected. The activity-sorted ones
      // share one sort key; the customer index sorts by the stable base `sk`. A channel has no index (it is
      // a filter); an existing table loses convChannel and convStatusChannel over two deploys
      // (docs/data-model.md, upgrading).
      ...(
        [
          ['convAll', 'c_all', 'c_act'],
          ['convStatus', 'c_st', 'c_act'],
          ['convCustomer', 'c_cus', 'sk'],
          ['convAssignee', 'c_asg', 'c_act'],
        ] as const
      ).map(([name, partitionKey, sortKey]) => ({ name, partitionKey, sortKey, include: ['conversation'] })),
    ],
    ttlAttribute: 'ttl',
    stream: 'NEW_IMAGE',
  },
  /** Short-lived counters and locks: rate limits, login throttling, idempotency records. No stream, so
   * per-request writes never wake the outbox dispatcher. */
  ephemeral: {
    id: 'Ephemeral',
    envVar: 'EPHEMERAL_TABLE_NAME',
    partitionKey: 'pk',
    indexes: [],
    ttlAttribute: 'ttl',
  },
  /**
   * Realtime tickets and WebSocket connections (functions/realtime/store.ts), all short-lived (TTL). Its
   * stream tells the realtime greeter of each new connection (it sends `realtime.ready`); the Main
   * stream's two readers are left alone.
   */
  realtime: {
    id: 'Realtime',
    envVar: 'REALTIME_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [],
    ttlAttribute: 'ttl',
    stream: 'NEW_IMAGE',
  },
} as const satisfies Record<string, TableSpec>;

export type TableName = keyof typeof TABLES;

/** The key prefix of API-key items in the main table: IAM lets every tenant route update only these (last_used_at). */
export const API_KEY_ITEM_PREFIX = 'APIKEY#';

export interface QueueSpec {
  id:
    | 'WebhookDelivery'
    | 'WebhookDeliveryDlq'
    | 'ChannelOutbound'
    | 'ChannelOutboundDlq'
    | 'WhatsAppInbound'
    | 'WhatsAppInboundDlq'
    | 'StreamFailures'
    | 'MediaFetch'
    | 'MediaFetchDlq'
    | 'SettledPasses'
    | 'SettledPassesDlq';
  envVar: string;
  visibilityTimeoutSeconds: number;
  retentionDays: number;
  /** Redrive target and receive count: messages that crash the consumer this often go there. */
  deadLetter?: {
    queue: 'webhookDeliveryDlq' | 'channelOutboundDlq' | 'whatsappInboundDlq' | 'mediaFetchDlq' | 'settledPassesDlq';
    maxReceiveCount: number;
  };
  /**
   * How long every message waits before its first receive (the queue's DelaySeconds); the local runtime
   * takes `localEnv` instead when it is set, so tests need not wait.
   */
  deliveryDelay?: { seconds: number; localEnv: string };
}

/**
 * Timeout of every worker function. A queue with a worker keeps a message invisible for six times
 * this (AWS's advice for Lambda consumers), so a batch that waits out throttling or retries is never
 * handed to a second invocation while the first still runs.
 */
export const WORKER_TIMEOUT_SECONDS = 25;

/**
 * How long a global secondary index may take to show a write: usually well under a second in AWS, so a
 * pass over an index this long after a change finds what the change's own pass could not see yet.
 */
export const INDEX_SETTLE_SECONDS = 4;
const CONSUMED_VISIBILITY_SECONDS = 6 * WORKER_TIMEOUT_SECONDS;

export const QUEUES = {
  webhookDelivery: {
    id: 'WebhookDelivery',
    envVar: 'WEBHOOK_DELIVERY_QUEUE_URL',
    // Retries are explicit re-sends with DelaySeconds; visibility only matters when a worker crashes.
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 4,
    deadLetter: { queue: 'webhookDeliveryDlq', maxReceiveCount: 5 },
  },
  webhookDeliveryDlq: {
    id: 'WebhookDeliveryDlq',
    envVar: 'WEBHOOK_DELIVERY_DLQ_URL',
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 14,
  },
  /**
   * Retries of outbound channel sends (WhatsApp Graph API, sandbox): a first attempt that failed (Lambda's
   * destination record of the dispatcher's asynchronous invocation) is retried on 5xx and 429 by redelivery.
   */
  channelOutbound: {
    id: 'ChannelOutbound',
    envVar: 'CHANNEL_OUTBOUND_QUEUE_URL',
    // Also the delay between retries (the worker retries in process first).
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 4,
    deadLetter: { queue: 'channelOutboundDlq', maxReceiveCount: 5 },
    // The queue holds retries only: the first waits out the failed attempt's 20 s lease (send-worker.ts)
    // and some of the provider's trouble, rather than coming back at once.
    deliveryDelay: { seconds: 30, localEnv: 'CHANNEL_RETRY_DELAY_SECONDS' },
  },
  /**
   * Drained by the sweeper each run, which records a message never sent as failed (channels/sweep.ts); an
   * alarm watches its depth, which stays near zero while the sweeper works.
   */
  channelOutboundDlq: {
    id: 'ChannelOutboundDlq',
    envVar: 'CHANNEL_OUTBOUND_DLQ_URL',
    visibilityTimeoutSeconds: 30,
    retentionDays: 14,
  },
  /**
   * Meta's webhook payloads, queued as they arrive once their signature is checked (Meta wants a 200 at
   * once, and redelivers for days otherwise): one message per business number's part of a payload.
   */
  whatsappInbound: {
    id: 'WhatsAppInbound',
    envVar: 'WHATSAPP_INBOUND_QUEUE_URL',
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 4,
    deadLetter: { queue: 'whatsappInboundDlq', maxReceiveCount: 5 },
  },
  /** No consumer: an alarm watches it (payloads that failed five times, kept 14 days to replay). */
  whatsappInboundDlq: {
    id: 'WhatsAppInboundDlq',
    envVar: 'WHATSAPP_INBOUND_DLQ_URL',
    visibilityTimeoutSeconds: 30,
    retentionDays: 14,
  },
  /**
   * On-failure destination of the stream workers: where a batch goes when its retries or its maximum
   * age run out (Lambda's record names the shard and sequence range, not the records). No consumer:
   * an alarm watches it and `npm run ops -- replay-stream-failures` replays it.
   */
  streamFailures: {
    id: 'StreamFailures',
    envVar: 'STREAM_FAILURE_QUEUE_URL',
    visibilityTimeoutSeconds: 30,
    retentionDays: 14,
  },
  /**
   * Inbound media to copy from the Graph API into the media bucket, one message per customer message
   * (queued by the stream reaction that sees the message written with `media.status: pending`). The
   * fetcher marks the media failed itself on the last receive, so the DLQ only keeps crashes.
   */
  mediaFetch: {
    id: 'MediaFetch',
    envVar: 'MEDIA_FETCH_QUEUE_URL',
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 4,
    deadLetter: { queue: 'mediaFetchDlq', maxReceiveCount: 5 },
  },
  /** No consumer: an alarm watches it (fetches that crashed five times). */
  mediaFetchDlq: {
    id: 'MediaFetchDlq',
    envVar: 'MEDIA_FETCH_DLQ_URL',
    visibilityTimeoutSeconds: 30,
    retentionDays: 14,
  },
  /**
   * Passes over an index that must wait until it shows a change (functions/events/settled-passes.ts): a
   * changed customer's copies, a disabled user's assignments. The queue's delay does the waiting, so a
   * stream reaction never sleeps while the records behind it on its shard wait too.
   */
  settledPasses: {
    id: 'SettledPasses',
    envVar: 'SETTLED_PASSES_QUEUE_URL',
    visibilityTimeoutSeconds: CONSUMED_VISIBILITY_SECONDS,
    retentionDays: 4,
    deadLetter: { queue: 'settledPassesDlq', maxReceiveCount: 5 },
    deliveryDelay: { seconds: INDEX_SETTLE_SECONDS, localEnv: 'SETTLED_PASS_DELAY_SECONDS' },
  },
  /** No consumer: an alarm watches it (passes that failed five times). */
  settledPassesDlq: {
    id: 'SettledPassesDlq',
    envVar: 'SETTLED_PASSES_DLQ_URL',
    visibilityTimeoutSeconds: 30,
    retentionDays: 14,
  },
} as const satisfies Record<string, QueueSpec>;

export type QueueKey = keyof typeof QUEUES;

/** Queues in creation order: dead-letter targets first, so redrive policies can name them. */
export function queuesInCreationOrder(): [QueueKey, QueueSpec][] {
  const entries = Object.entries(QUEUES) as [QueueKey, QueueSpec][];
  return [...entries.filter(([, s]) => !s.deadLetter), ...entries.filter(([, s]) => s.deadLetter)];
}

/** The dead-letter queues (redrive targets). */
export const deadLetterQueues = (): QueueKey[] => [
  ...new Set(
    Object.values(QUEUES as Record<string, QueueSpec>).flatMap((s) => (s.deadLetter ? [s.deadLetter.queue] : [])),
  ),
];

/** Queues that only ever hold failures: each gets a depth alarm in AWS. */
export const failureQueues = (): QueueKey[] => [...deadLetterQueues(), 'streamFailures'];

/**
 * The S3 buckets. Private, encrypted and TLS-only in AWS (lib/stateful-stack.ts); the local runtime makes
 * them in its S3 emulator. Objects expire `retentionDays` after they are written (a lifecycle rule), so a
 * message's media outlives its download URL but not the retention: the message keeps its metadata.
 */
export interface BucketSpec {
  id: 'Media';
  envVar: string;
  retentionDays: number;
}

export const BUCKETS = {
  /** Inbound media copied from WhatsApp and files uploaded to send: one prefix per tenant (functions/media/store.ts). */
  media: { id: 'Media', envVar: 'MEDIA_BUCKET_NAME', retentionDays: 90 },
} as const satisfies Record<string, BucketSpec>;

export type BucketKey = keyof typeof BUCKETS;
