import { encodeTime } from 'ulid';

/** The smallest or largest event id created at `date` (ULIDs start with their time), for range queries. */
export const ulidBound = (date: Date, side: 'low' | 'high'): string =>
  // ULID time starts at 1970: anything earlier is the start of time.
  `evt_${encodeTime(Math.max(0, date.getTime()), 10)}${side === 'low' ? '0'.repeat(16) : 'Z'.repeat(16)}`;
