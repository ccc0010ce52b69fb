import { DomainError } from '../platform/domain-error';
import { isId, newId } from '../platform/ids';
import { changesNothing } from '../platform/fields';
import { retryOnConflict } from '../platform/retry';
import type { EventEnvelope, EventType } from '../events/catalog';
import { newEvent } from '../events/store';
import { idRange } from '../events/time';
import { enqueueDeliveries, firstAttempt } from './delivery-queue';
import { checkNewUrl, resolveTarget, UnsafeTarget } from './ssrf';
import {
  createDelivery,
  createEndpoint,
  deleteEndpoint,
  endpointCount,
  EndpointsChanged,
  getDelivery,
  getEndpoint,
  listDeliveries,
  MAX_ENDPOINTS,
  replaceSecrets,
  restartDelivery,
  updateEndpoint,
} from './store';
import {
  activeSecrets,
  newDelivery,
  newSecret,
  ROTATION_OVERLAP_MS,
  type Delivery,
  type DeliveryStatus,
  type WebhookEndpoint,
} from './webhook';

/** Webhook endpoints and deliveries: the operations behind the endpoints and `npm run ops`. */

const webhookMissing = () => DomainError.notFound('The webhook');
const deliveryMissing = () => DomainError.notFound('The delivery');

/**
 * A URL the delivery worker would refuse (not https, credentials, too long, non-public host) is invalid.
 * Returns it normalised (lower-case host, default port dropped), as it is stored and called.
 */
async function safeUrl(raw: string): Promise<string> {
  try {
    const url = checkNewUrl(raw);
    await resolveTarget(url);
    return url.href;
  } catch (error) {
    if (error instanceof UnsafeTarget) throw DomainError.invalidField('unsafe_url', 'url', error.message);
    throw error;
  }
}

/** The endpoint with its secrets; not_found for an id that is not one of this tenant's. */
async function endpointOf(tenantId: string, id: string | undefined) {
  const endpoint = id && isId('whk', id) ? await getEndpoint(tenantId, id) : undefined;
  if (!endpoint) throw webhookMissing();
  return endpoint;
}

/** The endpoint as the API shows it: never its secrets. */
export const endpointView = <T extends { secrets?: unknown }>({ secrets: _s, ...endpoint }: T): Omit<T, 'secrets'> =>
  endpoint;

export async function getWebhook(tenantId: string, id: string | undefined) {
  return endpointView(await endpointOf(tenantId, id));
}

export interface NewWebhook {
  url: string;
  events: string[];
  description?: string;
  is_active: boolean;
}

/** Registers an endpoint with a new signing secret, which only this answer (and rotations) show. */
export async function createWebhook(
  tenantId: string,
  input: NewWebhook,
  now: Date,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await safeUrl(input.url);
  const at = now.toISOString();
  const endpoint: WebhookEndpoint = {
    id: newId('whk'),
    tenant_id: tenantId,
    url,
    events: [...new Set(input.events)],
    description: input.description ?? null,
    is_active: input.is_active,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const secret = newSecret();
  // Counted and created at one subscription version, so concurrent creations never pass the limit.
  await retryOnConflict(
    async () => {
      const { count, version } = await endpointCount(tenantId);
      if (count >= MAX_ENDPOINTS)
        throw DomainError.limit('too_many_webhooks', `A tenant can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
      await createEndpoint(endpoint, [{ secret, created_at: at, expires_at: null }], version);
    },
    {
      attempts: 8,
      retryable: (error) => error instanceof EndpointsChanged,
      exhausted: () => DomainError.conflict('concurrent_update', 'The webhook endpoints are changing too fast; retry.'),
    },
  );
  return { endpoint, secret };
}

export interface WebhookPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  is_active?: boolean;
}

/**
 * `is_active: false` stops deliveries at once: nothing new is queued, and pending retries are dropped.
 * The change is written on condition of the version read: with If-Match a lost race is 412; without it
 * the change is made again on the fresh endpoint.
 */
export async function updateWebhook(
  tenantId: string,
  id: string | undefined,
  patch: WebhookPatch,
  expectedVersion: number | undefined,
  now: Date,
) {
  const url = patch.url === undefined ? undefined : await safeUrl(patch.url);
  const update = async () => {
    const current = await endpointOf(tenantId, id);
    // Re-activated: events of the inactive period are not sent late (see subscribes()).
    const reactivated = !current.is_active && patch.is_active === true;
    const changes = {
      ...patch,
      url,
      events: patch.events ? [...new Set(patch.events)] : undefined,
      active_from: reactivated ? now.toISOString() : undefined,
    };
    if (changesNothing(current, changes)) {
      if (expectedVersion !== undefined && expectedVersion !== current.version) throw DomainError.versionMismatch();
      return endpointView(current);
    }
    if (expectedVersion !== undefined && expectedVersion !== current.version) throw DomainError.versionMismatch();
    return updateEndpoint(endpointView(current), changes, now.toISOString());
  };
  if (expectedVersion !== undefined) return update();
  return retryOnConflict(update, {
    attempts: 8,
    retryable: (error) => error instanceof DomainError && error.kind === 'version_mismatch',
    exhausted: () => DomainError.conflict('concurrent_update', 'The webhook is changing too fast; retry.'),
  });
}

/** Deleting an endpoint stops its pending retries; its delivery history stays readable. */
export async function deleteWebhook(
  tenantId: string,
  id: string | undefined,
  expectedVersion: number | undefined,
): Promise<void> {
  if (!id || !isId('whk', id) || !(await deleteEndpoint(tenantId, id, expectedVersion))) throw webhookMissing();
}

/**
 * A new secret signs from now on; the one it replaces keeps signing too for 24 h (two signatures).
 * Conditional on the version read, so two concurrent rotations cannot silently drop a secret: with
 * `expectedVersion` (If-Match) a lost race is 412. Without it, a rotation that lost to another change is
 * made again on the fresh endpoint, unless that change was itself a rotation: rotating again would end at
 * once the secret the other one just promised for 24 hours, so that is 409 and the other secret stands.
 */
export async function rotateSecret(
  tenantId: string,
  id: string | undefined,
  expectedVersion: number | undefined,
  now: Date,
) {
  let firstSecrets: string | undefined;
  const rotate = async () => {
    const endpoint = await endpointOf(tenantId, id);
    if (expectedVersion !== undefined && expectedVersion !== endpoint.version) throw DomainError.versionMismatch();
    const secrets = JSON.stringify(endpoint.secrets);
    firstSecrets ??= secrets;
    if (secrets !== firstSecrets)
      throw DomainError.conflict(
        'concurrent_update',
        'Another request rotated this secret meanwhile; its new secret stands. Read the endpoint, and rotate again if you must.',
      );
    const at = now.toISOString();
    const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
    // The current secret becomes the previous one; any older previous one stops signing now.
    const current = activeSecrets(endpoint.secrets, now).find((s) => s.expires_at === null);
    const previous = current ? [{ ...current, expires_at: until }] : [];
    const secret = newSecret();
    const updated = await replaceSecrets(
      endpointView(endpoint),
      [{ secret, created_at: at, expires_at: null }, ...previous],
      at,
    );
    return { endpoint: updated, secret, previousExpiresAt: until };
  };
  if (expectedVersion !== undefined) return rotate();
  return retryOnConflict(rotate, {
    attempts: 8,
    retryable: (error) => error instanceof DomainError && error.kind === 'version_mismatch',
    exhausted: () => DomainError.conflict('concurrent_update', 'The webhook is changing too fast; retry.'),
  });
}

/** Sends a `webhook.test` event to this endpoint now (an inactive endpoint receives nothing, as always). */
export async function sendTestEvent(tenantId: string, id: string | undefined, now: Date) {
  const endpoint = await endpointOf(tenantId, id);
  const event = newEvent(
    tenantId,
    'webhook.test',
    { webhook_id: endpoint.id, message: 'This is a test event from the messaging platform.' },
    now,
  );
  const delivery = newDelivery(event, endpoint.id, now);
  await createDelivery(delivery, event);
  await enqueueDeliveries([firstAttempt(event, delivery.id, endpoint)]);
  return { delivery, event };
}

/** What a delivery list may be narrowed by; `since`/`until` bound the event's time. */
export interface DeliveryListFilter {
  status?: DeliveryStatus;
  eventType?: EventType;
  since?: Date;
  until?: Date;
}

/** The delivery ids of events between `since` and `until` (delivery ids start with their event's time). */
function deliveryIdRange(since: Date | undefined, until: Date | undefined, code: string) {
  if (since && until && since > until) throw DomainError.malformed(code, '`since` must not be after `until`.');
  return idRange(since, until, 'dlv');
}

/** Deliveries, newest first, narrowed by `filter` (all of an endpoint's, or the tenant's of one status). */
function filteredDeliveries(
  tenantId: string,
  filter: DeliveryListFilter & { webhookId?: string },
  request: { limit: number; cursor?: string },
) {
  const { webhookId, status, eventType, since, until } = filter;
  const range = deliveryIdRange(since, until, 'invalid_query');
  return listDeliveries(tenantId, { webhookId, status, eventType, ...range }, request);
}

/** The tenant's deliveries: failed unless another status is asked for, of one endpoint (even deleted) or all. */
export function tenantDeliveries(
  tenantId: string,
  filter: DeliveryListFilter & { webhookId?: string },
  request: { limit: number; cursor?: string },
) {
  return filteredDeliveries(tenantId, { ...filter, status: filter.status ?? 'failed' }, request);
}

/** One existing endpoint's deliveries, of every status unless one is asked for. */
export async function endpointDeliveries(
  tenantId: string,
  id: string | undefined,
  filter: DeliveryListFilter,
  request: { limit: number; cursor?: string },
) {
  const endpoint = await endpointOf(tenantId, id);
  return filteredDeliveries(tenantId, { ...filter, webhookId: endpoint.id }, request);
}

/** The payload and every attempt: time, status code, duration, error, first 1 KB of the response. */
export async function deliveryOf(tenantId: string, id: string | undefined) {
  const delivery = id && isId('dlv', id) ? await getDelivery(tenantId, id) : undefined;
  if (!delivery) throw deliveryMissing();
  return delivery;
}

type Replayable = Delivery & { payload?: EventEnvelope };

/** Replays unless the delivery is still pending: a new cycle with the full retry schedule, queued now. Returns the new cycle, or undefined. */
export async function replayIfFinished(delivery: Replayable, now: Date): Promise<number | undefined> {
  const cycle = await restartDelivery(delivery, now);
  if (cycle === undefined) return undefined;
  await enqueueDeliveries([
    {
      tenant_id: delivery.tenant_id,
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      cycle,
      failures: 0,
      payload: delivery.payload,
    },
  ]);
  return cycle;
}

/** Replays a finished delivery; a pending one is a conflict. */
export async function replay(delivery: Replayable, now: Date): Promise<number> {
  const cycle = await replayIfFinished(delivery, now);
  if (cycle === undefined)
    throw DomainError.conflict(
      'delivery_in_progress',
      'This delivery is still pending; wait for it to finish before replaying it.',
    );
  return cycle;
}

export async function retryDelivery(tenantId: string, id: string | undefined, now: Date) {
  const delivery = await deliveryOf(tenantId, id);
  return { delivery, cycle: await replay(delivery, now) };
}

/** At most this many replays per call; the answer says whether more remain. */
const MAX_REPLAYS = 1000;

/**
 * Replays every failed delivery of this endpoint for events between `since` and `until`. Without `until`
 * the window has no end: a delivery id starts with its event's time on the clock of the Lambda that took
 * it, which may run ahead of this one's, and a failure recorded before the call is never left out.
 */
export async function recoverDeliveries(
  tenantId: string,
  id: string | undefined,
  window: { since: Date; until?: Date },
  now: Date,
) {
  const endpoint = await endpointOf(tenantId, id);
  const { since } = window;
  if (!window.until && since > now) throw DomainError.malformed('invalid_window', '`since` must not be in the future.');
  const filter = {
    webhookId: endpoint.id,
    status: 'failed' as const,
    ...deliveryIdRange(since, window.until, 'invalid_window'),
  };
  let replayed = 0;
  let skipped = 0;
  let cursor: string | undefined;
  do {
    const page = await listDeliveries(tenantId, filter, { limit: 100, cursor });
    for (const delivery of page.items) {
      // One that is no longer failed (replayed meanwhile by someone else) is skipped, not fatal.
      if (await replayIfFinished(delivery, now)) replayed++;
      else skipped++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && replayed + skipped < MAX_REPLAYS);
  return { replayed, skipped, hasMore: cursor !== undefined, since, until: window.until ?? now };
}
