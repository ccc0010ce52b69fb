import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { queueUrl } from '../platform/config';
import { sqsClient } from '../platform/queue';
import { logger, streamWorker } from '../platform/workers';
import { EVENT_SK_PREFIX, eventFromItem } from './store';
import { fanOut } from '../webhooks/fanout';
import { clock } from '../platform/clock';

/**
 * The outbox dispatcher, on the main table's stream (filtered as lib/workers.ts says): each event fans
 * out to the tenant's matching webhook endpoints, and outbound messages written as `queued` are handed
 * to the channel queue. Because both come from committed writes, nothing is sent for a change that did not happen.
 */
export const handler = streamWorker(async (record) => {
  const image = record.dynamodb?.NewImage;
  if (!image) return;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (String(item.sk).startsWith(EVENT_SK_PREFIX)) {
    const event = eventFromItem(item);
    const deliveries = await fanOut(event, clock.now());
    logger.info('event', { event_id: event.id, type: event.type, tenant_id: event.tenant_id, deliveries });
    return;
  }
  if (item.outbox === 'channel_send') {
    await sqsClient().send(
      new SendMessageCommand({
        QueueUrl: queueUrl('channelOutbound'),
        MessageBody: JSON.stringify({ tenant_id: item.tenant_id, conversation_id: item.conversation_id, message_id: item.id }),
      }),
    );
  }
});
