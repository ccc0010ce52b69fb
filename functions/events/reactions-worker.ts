import { analyseInboundMessage } from '../ai/analysis-reaction';
import { releaseDisabledUser } from '../conversations/release-reaction';
import { settleCustomerCopies } from '../customers/copies-reaction';
import { newImageOf, streamWorker } from '../platform/workers';
import { matchesFilter } from '../../catalog/event-filters';
import { STREAM_REACTIONS, type StreamReaction } from '../../catalog/workers';

/** Each reaction of catalog/workers.ts, kept in its own feature. */
const REACTIONS: Record<StreamReaction, (item: Record<string, unknown>) => Promise<void>> = {
  'message-analysis': analyseInboundMessage,
  'assignment-release': releaseDisabledUser,
  'customer-copies': settleCustomerCopies,
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
  const item = newImageOf(record);
  if (!item) return;
  for (const name of reactionsTo(record)) await REACTIONS[name](item);
});
