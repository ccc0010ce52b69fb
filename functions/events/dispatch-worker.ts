import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { queueUrl } from '../platform/config';
import { queueBody, sqsClient } from '../platform/queue';
import { logger, streamWorker } from '../platform/workers';
import { EVENT_SK_PREFIX, eventFromItem } from './store';
import { currentSubscriptions, fanOut, type Subscriptions } from '../webhooks/fanout';
import { clock } from '../platform/clock';

const itemOf = (record: DynamoDBRecord): Record<string, unknown> | undefined => {
  const image = record.dynamodb?.NewImage;
  return image ? unmarshall(image as Record<string, AttributeValue>) : undefined;
};
const isEvent = (item: Record<string, unknown>): boolean =>
  typeof item.sk === 'string' && item.sk.startsWith(EVENT_SK_PREFIX);

/**
 * The outbox dispatcher, on the main table's stream (filtered as spec/workers.ts says): each event fans
 * out to the tenant's matching webhook endpoints, and outbound messages written as `queued` are handed
 * to the channel queue. Because both come from committed writes, nothing is sent for a change that did
 * not happen. The subscriptions of the batch's tenants are read once per batch, after its events exist.
 */
export const handler = streamWorker(
  async (record, subscriptions: Subscriptions) => {
    const item = itemOf(record);
    if (!item) return;
    if (isEvent(item)) {
      const event = eventFromItem(item);
      const deliveries = await fanOut(event, subscriptions.get(event.tenant_id) ?? [], clock.now());
      logger.info('event', { event_id: event.id, type: event.type, tenant_id: event.tenant_id, deliveries });
      return;
    }
    if (item.outbox === 'channel_send') {
      await sqsClient().send(
        new SendMessageCommand({
          QueueUrl: queueUrl('channelOutbound'),
          MessageBody: queueBody({
            tenant_id: item.tenant_id,
            conversation_id: item.conversation_id,
            message_id: item.id,
          }),
        }),
      );
    }
  },
  (records) =>
    currentSubscriptions(
      records.flatMap((record) => {
        const item = itemOf(record);
        return item && isEvent(item) ? [eventFromItem(item).tenant_id] : [];
      }),
    ),
);
