import { clock } from '../platform/clock';
import { sqsWorker } from '../platform/workers';
import { QUEUES } from '../../catalog/resources';
import { fetchInboundMedia } from './media-fetch';
import type { MessageRef } from '../conversations/message-store';

/**
 * Copies customers' files from the Graph API into the media bucket, one queued message each. A fetch
 * that throws is received again after the visibility timeout; the last receive settles it as failed.
 */
export const handler = sqsWorker(async (record) => {
  const ref = JSON.parse(record.body) as MessageRef;
  const lastAttempt = Number(record.attributes.ApproximateReceiveCount) >= QUEUES.mediaFetch.deadLetter.maxReceiveCount;
  await fetchInboundMedia(ref, lastAttempt, clock.now());
});
