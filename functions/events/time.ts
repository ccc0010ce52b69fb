import { encodeTime } from 'ulid';

/** The smallest or largest event id created at `date` (ULIDs start with their time), for range queries. */
export const ulidBound = (date: Date, side: 'low' | 'high'): string =>
  `evt_${encodeTime(date.getTime(), 10)}${side === 'low' ? '0'.repeat(16) : 'Z'.repeat(16)}`;
