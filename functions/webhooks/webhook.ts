import { createHash, createHmac, randomBytes } from 'node:crypto';
import { matchesPattern, type EventEnvelope } from '../events/catalog';

/** Webhook endpoints and deliveries: pure rules (signing, schedule, matching). No AWS imports. */
export interface WebhookSecret {
  secret: string;
  created_at: string;
  /** Set on the previous secret at rotation: it keeps signing until then. */
  expires_at: string | null;
}

export interface WebhookEndpoint {
  id: string;
  tenant_id: string;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  version: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

export interface Delivery {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  /** Each replay starts a new cycle; queued retries of an older cycle are dropped. */
  cycle: number;
  /** Attempts made in this cycle: an attempt is recorded only by the message that expects this count. */
  cycle_attempts: number;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  succeeded_at: string | null;
  failed_at: string | null;
}

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** Rotation keeps the old secret signing alongside the new one for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export const activeSecrets = (secrets: WebhookSecret[], now: Date): WebhookSecret[] =>
  secrets.filter((s) => !s.expires_at || Date.parse(s.expires_at) > now.getTime());

/**
 * The body of an event's delivery: the same bytes for every attempt and every endpoint, wherever the worker
 * found the event (in the queue message, or read back from the delivery, whose maps DynamoDB returns with
 * their keys in no set order). The envelope's fields come in their documented order, and the keys of every
 * object inside `data` sorted.
 */
export function deliveryBody(event: EventEnvelope): string {
  const { id, type, created_at, tenant_id, api_version, data } = event;
  return JSON.stringify({ id, type, created_at, tenant_id, api_version, data: sortedKeys(data) });
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with
 * the base64-decoded secret; several signatures are separated by spaces.
 */
export function sign(secrets: string[], msgId: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

export const DEFAULT_RETRY_DELAYS = [1, 5, 25, 125, 625];

/** WEBHOOK_RETRY_DELAYS: comma-separated seconds (tests shorten it); SQS allows at most 900 s. */
export function retryDelays(raw: string | undefined): number[] {
  if (!raw) return DEFAULT_RETRY_DELAYS;
  const parsed = raw.split(',').map((s) => Number(s.trim()));
  if (parsed.length === 0 || parsed.some((n) => !Number.isInteger(n) || n < 0 || n > 900)) return DEFAULT_RETRY_DELAYS;
  return parsed;
}

/** An endpoint as the dispatcher matches it: `active_from` is when it was created or last re-activated. */
export type Subscription = Pick<WebhookEndpoint, 'events' | 'is_active'> & { active_from?: string };

/**
 * How far before its `active_from` an event may have been committed and still go to a re-activated
 * endpoint. `active_from` is on the clock of the Lambda that re-activated it, the commit time on
 * DynamoDB's (rounded down to the second in stream records): clocks differ by far less than this, so an
 * event committed after the re-activation's 2xx is never filtered out; the price is that an event of
 * the last few seconds of the inactive period may be sent too.
 */
export const ACTIVE_FROM_MARGIN_MS = 5_000;

/**
 * Whether an endpoint gets an event: it is active, subscribed to the type, and the event was committed
 * while it was active (an event of an inactive period that is dispatched late is not sent after a
 * re-activation). `committedAt` is when the event's write committed (the stream record's time); the
 * event's `created_at` was taken when its request started, on another Lambda's clock: the later of the
 * two counts.
 */
export const subscribes = (
  endpoint: Subscription,
  event: { type: string; created_at: string },
  committedAt?: Date,
): boolean =>
  endpoint.is_active &&
  (!endpoint.active_from ||
    committedNoEarlierThan(event, committedAt) >= Date.parse(endpoint.active_from) - ACTIVE_FROM_MARGIN_MS) &&
  endpoint.events.some((pattern) => matchesPattern(event.type, pattern));

/**
 * The latest time the event is known to have committed by: both its `created_at` (its request's start)
 * and the stream record's time (rounded down; coarser still in some emulators) are lower bounds.
 */
const committedNoEarlierThan = (event: { created_at: string }, committedAt: Date | undefined): number =>
  Math.max(Date.parse(event.created_at), committedAt?.getTime() ?? Number.NEGATIVE_INFINITY);

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A delivery's id is derived from its event and endpoint: the event's time, then 80 bits of a hash.
 * A stream retry of the dispatcher therefore recreates the same id, and the conditional put dedupes it.
 */
export function deliveryId(eventId: string, webhookId: string): string {
  const time = eventId.replace(/^evt_/, '').slice(0, 10);
  const digest = createHash('sha256').update(`${eventId}|${webhookId}`).digest();
  let bits = '';
  for (const byte of digest.subarray(0, 10)) bits += byte.toString(2).padStart(8, '0');
  let random = '';
  for (let i = 0; i < 80; i += 5) random += CROCKFORD[parseInt(bits.slice(i, i + 5), 2)];
  return `dlv_${time}${random}`;
}

/**
 * How long past its due time a pending delivery that no worker has taken may wait before the sweeper
 * takes its queue message for lost and queues it again (WEBHOOK_SWEEP_GRACE_SECONDS). A message still
 * waiting in a busy queue costs one wasted message if swept: the attempt lease lets only one of the
 * two POST. An attempt under way is taken over when its lease ends instead (attemptLeaseMs).
 */
export const DEFAULT_SWEEP_GRACE_SECONDS = 20;
export function sweepGraceSeconds(raw: string | undefined): number {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n >= 1 ? n : DEFAULT_SWEEP_GRACE_SECONDS;
}

/**
 * How long a worker holds an attempt: the POST's timeout plus a margin for resolving the host and
 * recording the outcome. Until it ends no other worker or sweeper makes that attempt, so a delivery is
 * never POSTed twice at the same time; once it ends (the worker died) the sweeper takes it over.
 */
export const attemptLeaseMs = (postTimeoutMs: number): number => postTimeoutMs + 5_000;

/**
 * What the sweeper does with an overdue pending delivery: another attempt while the schedule has
 * retries left, else the dead-letter queue (its last attempt failed but the hand-off was lost).
 */
export const sweepAction = (d: Pick<Delivery, 'cycle_attempts'>, delays: number[]): 'attempt' | 'dead_letter' =>
  d.cycle_attempts > delays.length ? 'dead_letter' : 'attempt';

/** The first 1 KB of a response body, as recorded on each attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** A new delivery of an event to an endpoint: pending, first cycle, no attempts yet. */
export function newDelivery(
  event: { id: string; type: string; tenant_id: string },
  webhookId: string,
  now: Date,
): Delivery {
  const at = now.toISOString();
  return {
    id: deliveryId(event.id, webhookId),
    tenant_id: event.tenant_id,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    cycle: 1,
    cycle_attempts: 0,
    attempts: [],
    next_attempt_at: at,
    failure_reason: null,
    created_at: at,
    updated_at: at,
    succeeded_at: null,
    failed_at: null,
  };
}

/**
 * An endpoint as the API returns it to a caller of `role`. A URL's path and query are often the receiver's
 * credential (a Zapier or Slack hook is its URL), so only admins, who manage endpoints, see them; an agent
 * gets the origin, which tells endpoints apart, and `url_redacted: true`.
 */
export function endpointRecord<T extends { url: string }>(
  endpoint: T,
  role: 'admin' | 'agent',
): T & { url_redacted: boolean } {
  if (role === 'admin') return { ...endpoint, url_redacted: false };
  const url = URL.parse(endpoint.url);
  // Stored URLs were parsed at registration; one that no longer parses shows nothing rather than failing the list.
  if (!url) return { ...endpoint, url: '', url_redacted: true };
  const hidden = url.pathname !== '/' || url.search !== '' || url.hash !== '';
  return { ...endpoint, url: hidden ? `${url.origin}/` : endpoint.url, url_redacted: hidden };
}
