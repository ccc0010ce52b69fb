import { invokeWorker } from '../platform/invoke';
import { logger, newImageOf, streamWorker } from '../platform/workers';
import { EVENT_SK_PREFIX, eventFromItem, storeDispatchedEvents } from './store';
import { MESSAGE_EVENTS_OUTBOX, messageEventsOf } from '../conversations/message-store';
import { messageFromItem } from '../conversations/store';
import { sendRequestOf } from '../channels/send-request';
import type { EventEnvelope } from './catalog';
import { tenantOfPk } from '../platform/keys';
import { currentSubscriptions, fanOut, type Subscriptions } from '../webhooks/fanout';
import { clock } from '../platform/clock';

const isEvent = (item: Record<string, unknown>): boolean =>
  typeof item.sk === 'string' && item.sk.startsWith(EVENT_SK_PREFIX);

/** Whether a record brings events: an event item itself, or a message's write that carries some. */
const bringsEvents = (item: Record<string, unknown>): boolean => isEvent(item) || item.outbox === MESSAGE_EVENTS_OUTBOX;

/**
 * Fans a record's events out, in order, and logs them in one line (a message's send brings three).
 * `committedAt` is the record's time: when the events were committed, on DynamoDB's clock.
 */
async function fanOutAll(events: EventEnvelope[], subscriptions: Subscriptions, committedAt: Date | undefined) {
  const logged: { event_id: string; type: string; deliveries: number }[] = [];
  for (const event of events) {
    const deliveries = await fanOut(event, subscriptions.get(event.tenant_id) ?? [], clock.now(), committedAt);
    logged.push({ event_id: event.id, type: event.type, deliveries });
  }
  const [first] = logged;
  if (first)
    logger.info('event', {
      tenant_id: events[0]?.tenant_id,
      ...(logged.length === 1 ? first : { events: logged }),
    });
}

/**
 * The outbox dispatcher, on the main table's stream (filtered as catalog/workers.ts says): each event fans
 * out to the tenant's matching webhook endpoints, and outbound messages written as `queued` are handed
 * to the channel sender (an asynchronous invocation: no queue request unless the first attempt fails). A message's status events come on the message's own record: they are stored
 * first (so the event list and replays have them), then fanned out. Because all of these come from
 * committed writes, nothing is sent for a change that did not happen. The subscriptions of the batch's
 * tenants are read once per batch, after its events exist.
 */
export const handler = streamWorker(
  async (record, subscriptions: Subscriptions) => {
    const item = newImageOf(record);
    if (!item) return;
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const committedAt = typeof seconds === 'number' ? new Date(seconds * 1000) : undefined;
    if (isEvent(item)) return fanOutAll([eventFromItem(item)], subscriptions, committedAt);
    const carried = messageEventsOf(item);
    if (carried.length > 0) {
      await storeDispatchedEvents(carried);
      return fanOutAll(carried, subscriptions, committedAt);
    }
    if (item.outbox === 'channel_send') {
      await invokeWorker('channel-sender', sendRequestOf(messageFromItem(item)));
    }
  },
  (records) =>
    currentSubscriptions(
      records.flatMap((record) => {
        // The tenant from the key: no envelope is inflated twice (the record's handler reads them).
        const item = newImageOf(record);
        const tenantId = item && bringsEvents(item) ? tenantOfPk(item.pk) : undefined;
        return tenantId ? [tenantId] : [];
      }),
    ),
);
