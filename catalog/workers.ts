/**
 * The one table of asynchronous workers: the CDK stack gives each an event-source mapping and the local
 * runtime a poller, from these same entries. Pure data, like catalog/routes.ts.
 */
import { MEDIA_FETCH_FAILED_METRIC, OVERDUE_DELIVERY_METRIC, OVERDUE_OUTBOUND_METRIC } from './metrics';
import type { QueueKey } from './resources';

/** A Lambda event-filter pattern, restricted to what the local poller also understands (catalog/event-filters.ts). */
export type FilterPattern = Record<string, unknown>;

export type WorkerSource =
  /** One batch per shard at a time (Lambda's parallelization factor 1): a stream worker runs at most one instance per shard. */
  | { kind: 'stream'; table: 'main' | 'realtime'; filters: FilterPattern[]; batchSize: number; maxRetries: number }
  /** `concurrency`: the most batches at once (the event source's maximum concurrency, at least 2). */
  | { kind: 'queue'; queue: QueueKey; batchSize: number; concurrency: number }
  /**
   * Runs on a timer: an EventBridge schedule in AWS, a timer in the local runtime (where `localEveryEnv`
   * names a variable that may shorten it, for tests). Runs never overlap: each takes a lease first
   * (functions/platform/leases.ts).
   */
  | { kind: 'schedule'; everySeconds: number; localEveryEnv?: string };

export interface WorkerDef {
  id: string;
  handler: string;
  description: string;
  source: WorkerSource;
  mainTable: 'read' | 'write' | 'none';
  /** Reads (and removes gone) realtime connections and sends to them through the WebSocket API's management endpoint. */
  realtime?: true;
  /** Queues the worker sends to. */
  sendsTo: QueueKey[];
  /** Decrypts secrets stored in the table (channel credentials). */
  dataKey?: true;
  /** Calls the AI provider (Bedrock, when configured at deploy time). */
  ai?: true;
  /** Uses the platform's Meta app (its id, secret and Graph API version: WhatsApp). */
  whatsappApp?: true;
  /** Workers this one hands work to by Lambda's asynchronous invocation, with no queue in between. */
  invokes?: string[];
  /**
   * Invoked asynchronously by the workers that list it in `invokes`, which find its function name in
   * `envVar`. Lambda makes one attempt; a failed one goes, as Lambda's destination record, to the
   * `onFailure` queue, which this worker also consumes: retries take the queue's path.
   */
  asyncInvoke?: { envVar: string; onFailure: QueueKey };
  /** Queues the worker receives from and deletes from itself (no event source: it drains them when it runs). */
  drains?: QueueKey[];
  /**
   * Custom metrics (in METRICS' namespace and service) the worker publishes each run, each with an alarm in
   * AWS when its maximum over five minutes reaches `threshold`: stuck work an operator should know of.
   */
  metricAlarms?: { metric: string; threshold: number; description: string }[];
  /** The media bucket: `read` (GetObject), `write` (GetObject and PutObject). */
  media?: 'read' | 'write';
}

export { METRICS, OVERDUE_DELIVERY_METRIC, OVERDUE_OUTBOUND_METRIC } from './metrics';
/** Work overdue this long outlived several sweeps: the sweeper is failing or cannot keep up. */
const STUCK_WORK_SECONDS = 300;

/** The keys (sort-key prefixes) of the writes the realtime side of the dispatcher takes (see below). */
export const REALTIME_SIGNAL_PREFIXES = ['CONVNOTE#', 'SESSION#', 'USER#', 'APIKEY#'] as const;

/**
 * A team note written, edited or deleted (signalled to open sockets: notes have no event), and writes
 * that may revoke a credential: a session item (`revoked_at`: logout, refresh-token reuse), a user item
 * (`credentials_changed_at`: disabled, a new password), an API key's pointer removed. Their sockets are
 * closed. One pattern on the keys, so the dispatcher stays within Lambda's five filters per mapping;
 * the code reads each record's image to decide.
 */
export const REALTIME_SIGNAL_FILTERS: FilterPattern[] = [
  {
    eventName: ['INSERT', 'MODIFY', 'REMOVE'],
    dynamodb: { Keys: { sk: { S: REALTIME_SIGNAL_PREFIXES.map((prefix) => ({ prefix })) } } },
  },
];

/**
 * Stream records the dispatcher wants: outbox events (but not those it stored itself from a message's
 * outbox, which it fanned out from that message's record), outbound messages waiting to be sent,
 * message writes that carry their status events (`outbox = events`), and the realtime signals' writes.
 */
export const DISPATCH_FILTERS: FilterPattern[] = [
  {
    eventName: ['INSERT'],
    dynamodb: { NewImage: { sk: { S: [{ prefix: 'EVT#' }] }, dispatched: { BOOL: [{ exists: false }] } } },
  },
  { eventName: ['INSERT'], dynamodb: { NewImage: { outbox: { S: ['channel_send'] } } } },
  { eventName: ['MODIFY'], dynamodb: { NewImage: { outbox: { S: ['events'] } } } },
  ...REALTIME_SIGNAL_FILTERS,
];

/** Inbound customer messages, as they are written: the analysis worker's input. */
export const INBOUND_MESSAGE_FILTERS: FilterPattern[] = [
  {
    eventName: ['INSERT'],
    dynamodb: { NewImage: { sk: { S: [{ prefix: 'CONV#' }] }, direction: { S: ['inbound'] } } },
  },
];

/** A user item written with `status: disabled`: the assignment release's input. */
export const DISABLED_USER_FILTERS: FilterPattern[] = [
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: { NewImage: { sk: { S: [{ prefix: 'USER#' }] }, status: { S: ['disabled'] } } },
  },
];

/** A booking as it is written: its reminders follow it. */
export const BOOKING_FILTERS: FilterPattern[] = [
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { sk: { S: [{ prefix: 'BKG#' }] } } } },
];

/** A customer item changed (a rename, an identity linked): the input of the copies' settled pass. */
export const CUSTOMER_CHANGE_FILTERS: FilterPattern[] = [
  { eventName: ['MODIFY'], dynamodb: { NewImage: { sk: { S: [{ prefix: 'CUS#' }] } } } },
];

/**
 * What the stream-reactions worker does with a record, by the filter it matched: each reaction's logic
 * stays in its feature (functions/events/reactions-worker.ts names them). One Lambda reader for all of
 * them, beside the dispatcher: AWS advises at most two readers per stream shard.
 */
export const STREAM_REACTIONS = {
  // Every inbound message (the analysis's filter): the reaction acts only on those stored with a tap on a
  // reminder (functions/reminders/taps.ts). First, so a customer's answer does not wait for the analysis.
  'reminder-taps': INBOUND_MESSAGE_FILTERS,
  'message-analysis': INBOUND_MESSAGE_FILTERS,
  'assignment-release': DISABLED_USER_FILTERS,
  'booking-reminders': BOOKING_FILTERS,
  'customer-copies': CUSTOMER_CHANGE_FILTERS,
  // Every inbound message (the analysis's filter, so the mapping keeps within Lambda's five filters): the
  // reaction queues only those written with a file to fetch (functions/channels/media-fetch.ts).
  'media-fetch': INBOUND_MESSAGE_FILTERS,
} as const satisfies Record<string, FilterPattern[]>;

export type StreamReaction = keyof typeof STREAM_REACTIONS;

/** A connection registered by `$connect`: the realtime greeter's input (it sends `realtime.ready`). */
export const NEW_CONNECTION_FILTERS: FilterPattern[] = [
  { eventName: ['INSERT'], dynamodb: { NewImage: { sk: { S: [{ prefix: 'CONN#' }] } } } },
];

/** Lambda readers a DynamoDB stream takes without throttling one another (AWS: at most two per shard). */
export const MAX_STREAM_READERS = 2;

export const WORKERS: readonly WorkerDef[] = [
  {
    id: 'outbox-dispatcher',
    handler: 'outbox/dispatch-worker',
    description:
      'Outbox stream: fans events out to webhook endpoints and realtime connections (with note signals; revoked credentials closed), and hands outbound messages to the sender',
    source: { kind: 'stream', table: 'main', filters: DISPATCH_FILTERS, batchSize: 100, maxRetries: 10 },
    mainTable: 'write',
    sendsTo: ['webhookDelivery'],
    invokes: ['channel-sender'],
    realtime: true,
  },
  {
    id: 'realtime-greeter',
    handler: 'realtime/greet-worker',
    description: 'Greets each new realtime connection with realtime.ready once API Gateway has opened it',
    // The Realtime table's own stream: the Main stream keeps its two readers.
    source: { kind: 'stream', table: 'realtime', filters: NEW_CONNECTION_FILTERS, batchSize: 25, maxRetries: 2 },
    mainTable: 'none',
    sendsTo: [],
    realtime: true,
  },
  {
    id: 'stream-reactions',
    handler: 'events/reactions-worker',
    description:
      "Reacts to Main table writes: acts on customers' taps on reminders, analyses inbound messages (and hands off to humans), releases a disabled user's conversations, queues a changed customer's copies and inbound media for later",
    source: {
      kind: 'stream',
      table: 'main',
      // Each distinct pattern once: reactions may share one.
      filters: [...new Set(Object.values(STREAM_REACTIONS).flat())],
      batchSize: 25,
      maxRetries: 10,
    },
    mainTable: 'write',
    sendsTo: ['mediaFetch', 'settledPasses'],
    // A tap that cancels a booking closes its payment's link or refunds it: Stripe's key is unsealed.
    dataKey: true,
    ai: true,
  },
  {
    id: 'webhook-delivery',
    handler: 'webhooks/delivery-worker',
    description: 'Signs and POSTs webhook deliveries; schedules retries; gives up to the DLQ',
    source: { kind: 'queue', queue: 'webhookDelivery', batchSize: 10, concurrency: 4 },
    mainTable: 'write',
    sendsTo: ['webhookDelivery', 'webhookDeliveryDlq'],
    dataKey: true,
  },
  {
    id: 'webhook-dead-letters',
    handler: 'webhooks/dead-letter-worker',
    description: 'Records dead webhook deliveries in the failed-delivery view',
    source: { kind: 'queue', queue: 'webhookDeliveryDlq', batchSize: 10, concurrency: 1 },
    mainTable: 'write',
    sendsTo: [],
  },
  {
    id: 'sweeper',
    handler: 'sweeper/sweep-worker',
    description:
      'Takes over overdue webhook deliveries and queued outbound messages after a crash; settles channel dead letters; expires unpaid payment links and sends refunds left unsent',
    // Every 30 s locally; every minute in AWS (EventBridge's resolution).
    source: { kind: 'schedule', everySeconds: 30, localEveryEnv: 'SWEEP_INTERVAL_SECONDS' },
    mainTable: 'write',
    sendsTo: ['webhookDelivery', 'webhookDeliveryDlq', 'channelOutbound'],
    drains: ['channelOutboundDlq'],
    // Payments: Stripe's key is unsealed to close expired links and send refunds.
    dataKey: true,
    metricAlarms: [
      {
        metric: OVERDUE_DELIVERY_METRIC,
        threshold: STUCK_WORK_SECONDS,
        description: 'A webhook delivery has been overdue for 5 minutes or more (docs/operations.md, Overdue work)',
      },
      {
        metric: OVERDUE_OUTBOUND_METRIC,
        threshold: STUCK_WORK_SECONDS,
        description:
          'An outbound message has been queued and overdue for 5 minutes or more (docs/operations.md, Overdue work)',
      },
    ],
  },
  {
    id: 'snooze-waker',
    handler: 'conversations/snooze-worker',
    description: 'Opens snoozed conversations again when their snoozed_until has passed',
    source: { kind: 'schedule', everySeconds: 60, localEveryEnv: 'SNOOZE_WAKE_INTERVAL_SECONDS' },
    mainTable: 'write',
    sendsTo: [],
  },
  {
    id: 'business-scheduler',
    handler: 'scheduler/schedule-worker',
    description:
      'WhatsApp business messaging that falls due: scheduled messages (send_at), booking reminders, sandbox template reviews',
    source: { kind: 'schedule', everySeconds: 60, localEveryEnv: 'BUSINESS_SCHEDULER_INTERVAL_SECONDS' },
    mainTable: 'write',
    sendsTo: ['channelOutbound'],
  },
  {
    id: 'whatsapp-inbound',
    handler: 'channels/whatsapp-inbound-worker',
    description: 'Routes queued WhatsApp webhook payloads to tenants: customer messages, statuses, reactions',
    source: { kind: 'queue', queue: 'whatsappInbound', batchSize: 10, concurrency: 2 },
    mainTable: 'write',
    sendsTo: [],
    dataKey: true,
    whatsappApp: true,
  },
  {
    id: 'media-fetcher',
    handler: 'channels/media-fetch-worker',
    description: 'Copies the files customers send on WhatsApp from the Graph API into the media bucket',
    source: { kind: 'queue', queue: 'mediaFetch', batchSize: 1, concurrency: 2 },
    mainTable: 'write',
    sendsTo: [],
    dataKey: true,
    whatsappApp: true,
    media: 'write',
    metricAlarms: [
      {
        metric: MEDIA_FETCH_FAILED_METRIC,
        threshold: 1,
        description: 'Inbound WhatsApp media could not be fetched (docs/media.md): check the Graph API and the token',
      },
    ],
  },
  {
    id: 'settled-passes',
    handler: 'events/settled-passes-worker',
    description:
      "Passes over an index once it shows a change: brings a changed customer's copies up to it, and releases a disabled user's conversations the first pass missed",
    source: { kind: 'queue', queue: 'settledPasses', batchSize: 10, concurrency: 2 },
    mainTable: 'write',
    // A release's later pass queues the one after it.
    sendsTo: ['settledPasses'],
  },
  {
    id: 'channel-sender',
    handler: 'channels/send-worker',
    description: 'Sends outbound messages through their channel (WhatsApp Graph API, sandbox)',
    // The first attempt is the dispatcher's asynchronous invocation; the queue carries the retries.
    source: { kind: 'queue', queue: 'channelOutbound', batchSize: 10, concurrency: 2 },
    mainTable: 'write',
    sendsTo: [],
    dataKey: true,
    asyncInvoke: { envVar: 'CHANNEL_SENDER_FUNCTION', onFailure: 'channelOutbound' },
    whatsappApp: true,
    // Reads an uploaded file to hand it to WhatsApp (POST /{phone_number_id}/media).
    media: 'read',
  },
];
