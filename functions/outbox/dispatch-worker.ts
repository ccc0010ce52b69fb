import { invokeWorker } from '../platform/invoke';
import { logger, newImageOf, streamWorker } from '../platform/workers';
import { EVENT_SK_PREFIX, eventFromItem, storeDispatchedEvents } from '../events/store';
import { MESSAGE_EVENTS_OUTBOX, messageEventsOf } from '../conversations/message-store';
import { messageFromItem } from '../conversations/store';
import { sendRequestOf } from '../channels/send-request';
import type { EventEnvelope } from '../events/catalog';
import { tenantOfPk } from '../platform/keys';
import { currentSubscriptions, fanOut, type Subscriptions } from '../webhooks/fanout';
import { clock } from '../platform/clock';
import { handleRealtimeSignal, openConnections, pushEvents, type OpenConnections } from '../realtime/push';

/** What a batch shares: each tenant's webhook subscriptions and open realtime connections, read once. */
interface BatchTargets {
  subscriptions: Subscriptions;
  connections: OpenConnections;
}

const isEvent = (item: Record<string, unknown>): boolean =>
  typeof item.sk === 'string' && item.sk.startsWith(EVENT_SK_PREFIX);

/** Whether a record brings events: an event item itself, or a message's write that carries some. */
const bringsEvents = (item: Record<string, unknown>): boolean => isEvent(item) || item.outbox === MESSAGE_EVENTS_OUTBOX;

/**
 * Fans a record's events out, in order, and logs them in one line (a message's send brings three).
 * `committedAt` is the record's time: when the events were committed, on DynamoDB's clock.
 */
async function fanOutAll(events: EventEnvelope[], targets: BatchTargets, committedAt: Date | undefined) {
  const logged: { event_id: string; type: string; deliveries: number }[] = [];
  for (const event of events) {
    const deliveries = await fanOut(event, targets.subscriptions.get(event.tenant_id) ?? [], clock.now(), committedAt);
    logged.push({ event_id: event.id, type: event.type, deliveries });
  }
  // After the webhooks are queued: a push is best effort, and never holds them back.
  const pushes = await pushEvents(events, targets.connections);
  const [first] = logged;
  if (first)
    logger.info('event', {
      tenant_id: events[0]?.tenant_id,
      ...(logged.length === 1 ? first : { events: logged }),
      ...(pushes > 0 ? { pushes } : {}),
    });
}

/**
 * The outbox dispatcher, on the main table's stream (filtered as catalog/workers.ts says): each event fans
 * out to the tenant's matching webhook endpoints, and outbound messages written as `queued` are handed
 * to the channel sender (an asynchronous invocation: no queue request unless the first attempt fails). A message's status events come on the message's own record: they are stored
 * first (so the event list and replays have them), then fanned out. Each event is also pushed to the
 * tenant's open realtime connections (functions/realtime/push.ts): this reader serves them, so the Main
 * stream keeps its two readers; the same goes for a team note's `realtime.note` signal and for closing
 * the sockets of a revoked credential (handleRealtimeSignal). Because all of these come from committed writes, nothing is sent for a
 * change that did not happen. The subscriptions and connections of the batch's tenants are read once per
 * batch, after its events exist.
 */
export const handler = streamWorker(
  async (record, targets: BatchTargets) => {
    if (await handleRealtimeSignal(record)) return;
    const item = newImageOf(record);
    if (!item) return;
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const committedAt = typeof seconds === 'number' ? new Date(seconds * 1000) : undefined;
    if (isEvent(item)) return fanOutAll([eventFromItem(item)], targets, committedAt);
    const carried = messageEventsOf(item);
    if (carried.length > 0) {
      await storeDispatchedEvents(carried);
      return fanOutAll(carried, targets, committedAt);
    }
    if (item.outbox === 'channel_send') {
      await invokeWorker('channel-sender', sendRequestOf(messageFromItem(item)));
    }
  },
  async (records) => {
    const tenants = records.flatMap((record) => {
      // The tenant from the key: no envelope is inflated twice (the record's handler reads them).
      const item = newImageOf(record);
      const tenantId = item && bringsEvents(item) ? tenantOfPk(item.pk) : undefined;
      return tenantId ? [tenantId] : [];
    });
    const [subscriptions, connections] = await Promise.all([
      currentSubscriptions(tenants),
      openConnections(tenants, clock.now()),
    ]);
    return { subscriptions, connections };
  },
);
