import { receiveInbound } from '../../functions/conversations/service';
import { answerTap } from '../../functions/reminders/service';
import { authOf, call, createTenant, eventsOf, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

/**
 * A customer's tap on a reminder is acted on once, however often it arrives: the booking's change, the
 * `booking.reminder.answered` event and the tap's record commit in one transaction, so a tap delivered
 * twice at the same moment, again later, or again after the first delivery stopped between storing the
 * message and acting on it, changes the booking once, emits one event and sends one reply.
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
  const start = new Date(Date.now() + 3 * 60 * MINUTE);
  const booked = await call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { id: conversation.customer.id },
      conversation_id: conversation.id,
      service: 'Haircut',
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + 30 * MINUTE).toISOString(),
      timezone: 'Europe/Berlin',
      status: 'pending',
    },
  });
  expect(booked.status).toBe(201);
  return { conversation, booking: booked.body };
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
  await settle();
  const after = await bookingOf(booking.id);
  expect(after).toMatchObject({ status: 'confirmed', version: booking.version + 1 });
  expect(await eventsFor('booking.confirmed', booking.id)).toHaveLength(1);
  const answers = await eventsFor('booking.reminder.answered', booking.id);
  expect(answers.map((e) => [e.data.answer, e.data.booking.status])).toEqual([['confirm', 'confirmed']]);
  expect((await systemReplies(conversation.id)).map((m) => m.text)).toEqual([expect.stringMatching(/is confirmed/)]);
});

it('a tap stored but not acted on (the first delivery stopped) is acted on by its redelivery, once', async () => {
  const phone = '+4915100007102';
  const { conversation, booking } = await pendingBooking(phone);
  // The first delivery stores the message, as the inbound path does, and stops before acting on the tap.
  const stored = await receiveInbound(
    t.tenantId,
    'sandbox',
    null,
    { phone, name: null, text: 'Cancel', providerId: 'wamid.tap.2' },
    new Date(),
  );
  expect(stored?.message.id).toMatch(/^msg_/);
  expect((await bookingOf(booking.id)).status).toBe('pending');
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
  expect((await redeliver()).body).toEqual({ duplicate: true });
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
