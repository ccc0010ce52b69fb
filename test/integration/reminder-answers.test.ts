import { receiveInbound } from '../../functions/conversations/service';
import { answerTap } from '../../functions/reminders/service';
import { answerStoredTap, answerTapLogged } from '../../functions/reminders/taps';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { tableName } from '../../functions/platform/config';
import { messageKey } from '../../functions/conversations/store';
import { authOf, bookFor, call, createTenant, eventsOf, eventually, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { throttled } from '../support/dynamo-faults';

/**
 * A customer's tap on a reminder is stored with its message and acted on once, by the stream reaction to
 * that message, however often it arrives: the booking's change, the `booking.reminder.answered` event and
 * the tap's record commit in one transaction, so a tap delivered twice at the same moment, again later, or
 * whose stream record comes twice, changes the booking once, emits one event and sends one reply.
 */
useRuntimeAws();

let t: TestTenant;
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTenant();
});

async function pendingBooking(phone: string) {
  const opened = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(t),
    body: { from: phone, name: 'Maria Lopez', text: 'Hi, I booked for later' },
  });
  const conversation = opened.body.conversation;
  const booking = await bookFor(t, conversation, 3 * 60 * MINUTE);
  return { conversation, booking };
}

const bookingOf = async (id: string) => (await call('GET', `/bookings/${id}`, authOf(t))).body;
const eventsFor = async (type: string, bookingId: string) =>
  (await eventsOf(t, type)).filter((e) => e.data.booking.id === bookingId);
const systemReplies = async (conversationId: string) =>
  ((await call('GET', `/conversations/${conversationId}/messages?limit=100`, authOf(t))).body.data as any[]).filter(
    (m) => m.sender.type === 'system',
  );
/** Until the outbox has surely carried every committed event to GET /events (it lags the commit a little). */
const settle = () => new Promise((r) => setTimeout(r, 2500));

it('a Confirm tap delivered twice at once and once more later confirms once, with one event and one reply', async () => {
  const phone = '+4915100007101';
  const { conversation, booking } = await pendingBooking(phone);
  const tap = () =>
    call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: {
        from: phone,
        text: 'Confirm',
        payload: `reminder:${booking.id}:confirm`,
        provider_message_id: 'wamid.tap.1',
      },
    });
  const first = await Promise.all([tap(), tap()]);
  expect(first.map((r) => r.status).sort()).toEqual([200, 201]);
  expect((await tap()).body).toEqual({ duplicate: true });
  const after = await eventually(
    () => bookingOf(booking.id),
    (b) => b.status === 'confirmed',
  );
  expect(after.version).toBe(booking.version + 1);
  // The reply goes after the answer is recorded; then nothing more comes.
  await eventually(
    () => systemReplies(conversation.id),
    (list) => list.length > 0,
  );
  await settle();
  expect(await eventsFor('booking.confirmed', booking.id)).toHaveLength(1);
  const answers = await eventsFor('booking.reminder.answered', booking.id);
  expect(answers.map((e) => [e.data.answer, e.data.booking.status])).toEqual([['confirm', 'confirmed']]);
  expect((await systemReplies(conversation.id)).map((m) => m.text)).toEqual([expect.stringMatching(/is confirmed/)]);
});

it('a tap stored by a delivery that stopped right after storing it is acted on from the stream, once', async () => {
  const phone = '+4915100007102';
  const { conversation, booking } = await pendingBooking(phone);
  // The first delivery stores the message with its tap, as the inbound path does, and stops there.
  const stored = await receiveInbound(
    t.tenantId,
    'sandbox',
    null,
    { phone, name: null, text: 'Cancel', providerId: 'wamid.tap.2', replyPayload: `reminder:${booking.id}:cancel` },
    new Date(),
  );
  expect(stored?.message.id).toMatch(/^msg_/);
  // Meta delivers it again; the stored message is not stored twice, and the tap is not answered twice.
  const redeliver = () =>
    call('POST', '/channels/sandbox/inbound', {
      ...authOf(t),
      body: {
        from: phone,
        text: 'Cancel',
        payload: `reminder:${booking.id}:cancel`,
        provider_message_id: 'wamid.tap.2',
      },
    });
  expect((await redeliver()).body).toEqual({ duplicate: true });
  const after = await eventually(
    () => bookingOf(booking.id),
    (b) => b.status === 'cancelled',
  );
  expect(after.version).toBe(booking.version + 1);
  // The stream's record of the message, brought again (at least once): nothing more happens.
  const item = (
    await db().send(
      new GetCommand({
        TableName: tableName('main'),
        Key: messageKey(t.tenantId, conversation.id, stored!.message.id),
        ConsistentRead: true,
      }),
    )
  ).Item!;
  await eventually(
    () => systemReplies(conversation.id),
    (list) => list.length > 0,
  );
  await answerStoredTap(item);
  await settle();
  expect(await bookingOf(booking.id)).toMatchObject({ status: 'cancelled', version: booking.version + 1 });
  expect(await eventsFor('booking.cancelled', booking.id)).toHaveLength(1);
  const answers = await eventsFor('booking.reminder.answered', booking.id);
  expect(answers.map((e) => [e.data.answer, e.data.message_id])).toEqual([['cancel', stored!.message.id]]);
  expect((await systemReplies(conversation.id)).map((m) => m.text)).toEqual(['Your booking is cancelled.']);
});

it('one tap answered by three runs side by side changes the booking once and emits one event', async () => {
  const phone = '+4915100007103';
  const { conversation, booking } = await pendingBooking(phone);
  const stored = await receiveInbound(
    t.tenantId,
    'sandbox',
    null,
    { phone, name: null, text: 'Confirm', providerId: 'wamid.tap.3' },
    new Date(),
  );
  const run = () =>
    answerTap(
      t.tenantId,
      conversation.id,
      stored!.message.id,
      conversation.customer.id,
      { kind: 'answer', bookingId: booking.id, answer: 'confirm' },
      new Date(),
    );
  await Promise.all([run(), run(), run()]);
  await run();
  await settle();
  expect(await bookingOf(booking.id)).toMatchObject({ status: 'confirmed', version: booking.version + 1 });
  expect(await eventsFor('booking.confirmed', booking.id)).toHaveLength(1);
  expect(await eventsFor('booking.reminder.answered', booking.id)).toHaveLength(1);
  expect(await systemReplies(conversation.id)).toHaveLength(1);
});

/**
 * Fails, once each, the first DynamoDB call whose input matches `when`, with `error` (before it is sent: it
 * writes nothing, as a throttled or cancelled write does). Returns how many were failed and a remover.
 */
function failOnce(...faults: { when: (input: string) => boolean; error: () => Error }[]) {
  const pending = [...faults];
  let failed = 0;
  const name = `failOnce-${Math.random()}`;
  db().middlewareStack.add(
    (next) => async (args) => {
      const input = JSON.stringify((args as { input: unknown }).input);
      const fault = pending.find((f) => f.when(input));
      if (fault) {
        pending.splice(pending.indexOf(fault), 1);
        failed++;
        throw fault.error();
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { failed: () => failed, remove: () => db().middlewareStack.remove(name) };
}
const throttledTransaction = () =>
  Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'ThrottlingError' }],
  });

async function storedTap(phone: string, text: string, providerId: string) {
  const { conversation, booking } = await pendingBooking(phone);
  const stored = await receiveInbound(t.tenantId, 'sandbox', null, { phone, name: null, text, providerId }, new Date());
  return { conversation, booking, stored: stored! };
}

it('a Confirm whose transaction is throttled once still confirms the booking and replies', async () => {
  const { conversation, booking, stored } = await storedTap('+4915100007104', 'Confirm', 'wamid.tap.4');
  const faults = failOnce({
    when: (input) => input.includes('TransactItems') && input.includes(stored.message.id),
    error: throttledTransaction,
  });
  try {
    await answerTapLogged(
      t.tenantId,
      stored.message,
      { kind: 'answer', bookingId: booking.id, answer: 'confirm' },
      new Date(),
    );
  } finally {
    faults.remove();
  }
  expect(faults.failed()).toBe(1);
  expect(await bookingOf(booking.id)).toMatchObject({ status: 'confirmed', version: booking.version + 1 });
  await settle();
  expect((await systemReplies(conversation.id)).map((m) => m.text)).toEqual([expect.stringMatching(/is confirmed/)]);
});

it('a Reschedule whose record and whose offer are each throttled once still sends the free times', async () => {
  const { conversation, booking, stored } = await storedTap('+4915100007105', 'Reschedule', 'wamid.tap.5');
  const faults = failOnce(
    {
      when: (input) => input.includes('TransactItems') && input.includes(stored.message.id),
      error: throttledTransaction,
    },
    { when: (input) => input.includes('Free times'), error: throttled },
  );
  try {
    await answerTapLogged(
      t.tenantId,
      stored.message,
      { kind: 'answer', bookingId: booking.id, answer: 'reschedule' },
      new Date(),
    );
  } finally {
    faults.remove();
  }
  expect(faults.failed()).toBe(2);
  await settle();
  const offers = (await systemReplies(conversation.id)).filter((m) => m.type === 'interactive');
  expect(offers).toHaveLength(1);
  expect(offers[0].content.interactive).toMatchObject({ type: 'list', button: 'Free times' });
  expect(await eventsFor('booking.reminder.answered', booking.id)).toHaveLength(1);
});

it('an answer that fails for another reason than the booking fails its stream record, whose next delivery answers it', async () => {
  const { conversation, booking, stored } = await storedTap('+4915100007106', 'Confirm', 'wamid.tap.6');
  // The stream's image of the message as an inbound path stores it, with what the tap carried.
  const item = { ...stored.message, reply_payload: `reminder:${booking.id}:confirm` };
  const faults = failOnce({
    when: (input) => input.includes('TransactItems') && input.includes(stored.message.id),
    error: () => Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }),
  });
  try {
    await expect(answerStoredTap(item)).rejects.toThrow('socket hang up');
  } finally {
    faults.remove();
  }
  expect((await bookingOf(booking.id)).status).toBe('pending');
  await answerStoredTap(item);
  expect(await bookingOf(booking.id)).toMatchObject({ status: 'confirmed', version: booking.version + 1 });
  const replies = await eventually(
    () => systemReplies(conversation.id),
    (list) => list.length > 0,
  );
  expect(replies.map((m) => m.text)).toEqual([expect.stringMatching(/is confirmed/)]);
});

it('a Confirm on an older reminder of a booking cancelled since changes nothing and says it was cancelled', async () => {
  const { conversation, booking, stored } = await storedTap('+4915100007107', 'Confirm', 'wamid.tap.7');
  expect((await call('DELETE', `/bookings/${booking.id}`, authOf(t))).status).toBe(200);
  const cancelled = await bookingOf(booking.id);
  await answerTapLogged(
    t.tenantId,
    stored.message,
    { kind: 'answer', bookingId: booking.id, answer: 'confirm' },
    new Date(),
  );
  expect(await bookingOf(booking.id)).toMatchObject({ status: 'cancelled', version: cancelled.version });
  const replies = await eventually(
    () => systemReplies(conversation.id),
    (list) => list.length > 0,
  );
  expect(replies.map((m) => m.text)).toEqual([expect.stringMatching(/was cancelled\. Write to us to book again\.$/)]);
  const answers = await eventually(
    () => eventsFor('booking.reminder.answered', booking.id),
    (list) => list.length > 0,
  );
  expect(answers.map((e) => [e.data.answer, e.data.booking.status])).toEqual([['confirm', 'cancelled']]);
});
