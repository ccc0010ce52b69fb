import { reactionsTo } from '../../functions/events/reactions-worker';
import { STREAM_REACTIONS, WORKERS } from '../../catalog/workers';

/** The stream-reactions worker hands each record only to the reactions whose filter it matches. */
const record = (eventName: string, image: Record<string, unknown>) => ({
  eventName,
  dynamodb: {
    NewImage: Object.fromEntries(
      Object.entries(image).map(([k, v]) => [k, typeof v === 'boolean' ? { BOOL: v } : { S: String(v) }]),
    ),
  },
});

it("routes inbound messages to the reminder's taps, the analysis and the media fetch, disabled users to the assignment release, changed customers to their copies, and nothing else", () => {
  // The taps and the media fetch share the analysis's filter (Lambda's five per mapping) and skip messages
  // without a tap or a file; a tap is acted on before the analysis runs.
  expect(reactionsTo(record('INSERT', { sk: 'CONV#c1#MSG#m1', direction: 'inbound' }))).toEqual([
    'reminder-taps',
    'message-analysis',
    'media-fetch',
  ]);
  expect(reactionsTo(record('INSERT', { sk: 'CONV#c1#MSG#m2', direction: 'outbound' }))).toEqual([]);
  // An analysis written back onto the message is a MODIFY: not analysed again.
  expect(reactionsTo(record('MODIFY', { sk: 'CONV#c1#MSG#m1', direction: 'inbound' }))).toEqual([]);
  expect(reactionsTo(record('MODIFY', { sk: 'USER#u1', status: 'disabled' }))).toEqual(['assignment-release']);
  expect(reactionsTo(record('MODIFY', { sk: 'USER#u1', status: 'active' }))).toEqual([]);
  expect(reactionsTo(record('INSERT', { sk: 'EVT#e1' }))).toEqual([]);
  expect(reactionsTo(record('MODIFY', { sk: 'CUS#c1' }))).toEqual(['customer-copies']);
  // A new customer has no copies to bring up; its identity and name-index items are not the customer.
  expect(reactionsTo(record('INSERT', { sk: 'CUS#c1' }))).toEqual([]);
  expect(reactionsTo(record('MODIFY', { sk: 'CUSIDENT#+4915100000001' }))).toEqual([]);
  expect(reactionsTo(record('MODIFY', { sk: 'CUSWORD#c1#1' }))).toEqual([]);
});

it("subscribes the worker's stream source to exactly the reactions' filters", () => {
  const worker = WORKERS.find((w) => w.id === 'stream-reactions');
  // Reactions that share a filter share its one entry.
  expect(worker?.source).toMatchObject({
    kind: 'stream',
    filters: [...new Set(Object.values(STREAM_REACTIONS).flat())],
  });
});
