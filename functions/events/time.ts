// Public: event ids by time, which webhook replays read.
import { encodeTime } from 'ulid';

/** The smallest or largest event id created at `date` (ULIDs start with their time), for range queries. */
export const ulidBound = (date: Date, side: 'low' | 'high', prefix = 'evt'): string =>
  // ULID time starts at 1970: anything earlier is the start of time.
  `${prefix}_${encodeTime(Math.max(0, date.getTime()), 10)}${side === 'low' ? '0'.repeat(16) : 'Z'.repeat(16)}`;

/**
 * The key range of ids created between `since` and `until` (either open): events, or deliveries, whose ids
 * carry their event's time.
 */
export const idRange = (since: Date | undefined, until: Date | undefined, prefix = 'evt') => ({
  fromId: since && ulidBound(since, 'low', prefix),
  toId: until && ulidBound(until, 'high', prefix),
});
