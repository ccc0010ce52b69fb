import { analyseInboundMessage } from '../ai/analysis-reaction';
import { releaseDisabledUser } from '../conversations/release-reaction';
import { scheduleBookingReminders } from '../reminders/booking-reaction';
import { answerStoredTap } from '../reminders/taps';
import { customerCopiesPass } from '../customers/copies-reaction';
import { queueMediaFetch } from '../channels/media-fetch';
import { newImageOf, streamWorker } from '../platform/workers';
import { matchesFilter } from '../../catalog/event-filters';
import { STREAM_REACTIONS, type StreamReaction } from '../../catalog/workers';
import { queueSettledPass } from './settled-passes';

type StreamRecord = Parameters<typeof newImageOf>[0];
/** The record's new image, for reactions that read the item. */
const withItem = (react: (item: Record<string, unknown>) => Promise<void>) => async (record: StreamRecord) => {
  const item = newImageOf(record);
  if (item) await react(item);
};

/**
 * Each reaction of catalog/workers.ts, kept in its own feature. The booking reaction reads only the
 * booking's key (it reads the booking again), so it needs no decoding of the whole image. What must wait
 * for an index to show the change is queued as a settled pass (settled-passes.ts), never slept on here.
 */
const REACTIONS: Record<StreamReaction, (record: StreamRecord) => Promise<void>> = {
  'reminder-taps': withItem(answerStoredTap),
  'message-analysis': withItem(analyseInboundMessage),
  'assignment-release': withItem(async (user) => queueSettledPass(await releaseDisabledUser(user))),
  'booking-reminders': scheduleBookingReminders,
  'customer-copies': withItem((customer) => queueSettledPass(customerCopiesPass(customer))),
  'media-fetch': withItem(queueMediaFetch),
};

/** The reactions whose filters a record matches (normally one). */
export const reactionsTo = (record: unknown): StreamReaction[] =>
  (Object.keys(STREAM_REACTIONS) as StreamReaction[]).filter((name) =>
    STREAM_REACTIONS[name].some((pattern) => matchesFilter(record, pattern)),
  );

/**
 * The table stream's second reader (the dispatcher is the first): every record its filters let through
 * goes to the reaction whose filter it matched. One reader for several reactions keeps the stream within
 * AWS's two readers per shard; a failing record fails alone (batch item failures) and is retried.
 */
export const handler = streamWorker(async (record) => {
  for (const name of reactionsTo(record)) await REACTIONS[name](record);
});
