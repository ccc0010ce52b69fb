/**
 * Metric names and where they go, apart from the worker table so that every function can name its
 * service (functions/platform/observability.ts) without carrying the table in its bundle.
 */

/** Where the functions' Powertools metrics go (functions/platform/metrics.ts) and the alarms look. */
export const METRICS = { namespace: 'MessagingPlatform', service: 'messaging-api' } as const;

/** Published by the webhook sweeper: seconds since the oldest overdue delivery's attempt was due (0: none). */
export const OVERDUE_DELIVERY_METRIC = 'OldestOverdueWebhookDeliverySeconds';
/** Published by the outbound sweeper: seconds since the oldest overdue queued outbound message was queued (0: none). */
export const OVERDUE_OUTBOUND_METRIC = 'OldestOverdueQueuedMessageSeconds';
/** Published by the media fetcher: inbound media that could not be fetched (1 per file marked failed). */
export const MEDIA_FETCH_FAILED_METRIC = 'InboundMediaFetchFailed';
