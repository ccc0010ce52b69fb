import {
  authOf,
  bookFor,
  call,
  createTenant,
  eventsOf,
  eventually,
  scheduledRunLateMs,
  serverClockSkewMs,
  type TestTenant,
} from '../support/api';

// Timeouts cover the waits under the chaos mode: scheduled work may run 35 s late (scheduledRunLateMs).

/**
 * Booking reminders on the sandbox channel: sent at their offsets before the start, exactly once each,
 * moved by a reschedule, and the customer's Confirm, Cancel and Reschedule taps acting on the booking.
 */
let t: TestTenant;
const TEMPLATE = 'booking_reminder';
const MINUTE = 60_000;

async function customerConversation(phone: string) {
  const res = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(t),
    body: { from: phone, name: 'Maria Lopez', text: 'Hi, I booked for later' },
  });
  expect(res.status).toBe(201);
  return res.body.conversation;
}
const book = (conversation: any, startInMs: number, status = 'pending') => bookFor(t, conversation, startInMs, status);
const tap = (phone: string, text: string, payload: string) =>
  call('POST', '/channels/sandbox/inbound', { ...authOf(t), body: { from: phone, text, payload } });
const bookingOf = async (id: string) => (await call('GET', `/bookings/${id}`, authOf(t))).body;
const remindersOf = async (bookingId: string) =>
  (await eventsOf(t, 'booking.reminder.sent')).filter((e) => e.data.booking.id === bookingId);
const messagesOf = async (convId: string) =>
  (await call('GET', `/conversations/${convId}/messages?limit=100`, authOf(t))).body.data as any[];

beforeAll(async () => {
  t = await createTenant();
  const template = await call('POST', '/templates', {
    ...authOf(t),
    body: {
      channel: 'sandbox',
      name: TEMPLATE,
      language: 'en',
      category: 'utility',
      body: { text: 'Hi {{1}}, a reminder of your booking on {{2}}.', examples: ['Maria', 'Tue 10:00'] },
      buttons: [
        { type: 'quick_reply', text: 'Confirm' },
        { type: 'quick_reply', text: 'Cancel' },
        { type: 'quick_reply', text: 'Reschedule' },
      ],
    },
  });
  await eventually(
    async () => (await call('GET', `/templates/${template.body.id}`, authOf(t))).body,
    (tpl) => tpl.status === 'approved',
    20_000 + scheduledRunLateMs(),
  );
  // Reminders 6 and 5 minutes before the start: a booking starting in 6 minutes and a few seconds gets the
  // first within seconds and the second a minute later.
  const policy = await call('PATCH', '/reminder-policy', {
    ...authOf(t),
    body: {
      enabled: true,
      offsets_minutes: [5, 6],
      templates: [{ name: TEMPLATE, language: 'en' }],
      default_language: 'en',
    },
  });
  expect(policy.status).toBe(200);
  expect(policy.body).toMatchObject({ enabled: true, offsets_minutes: [6, 5] });
}, 60_000 + scheduledRunLateMs());

describe('booking reminders', () => {
  it('go at each offset before the start, exactly once, as the template with its answers', async () => {
    const conversation = await customerConversation('+4915100000101');
    const booking = await book(conversation, 6 * MINUTE + 4000);
    const first = await eventually(
      () => remindersOf(booking.id),
      (list) => list.length >= 1,
      30_000 + scheduledRunLateMs(),
    );
    expect(first[0].data).toMatchObject({ offset_minutes: 6, conversation_id: conversation.id });
    // The messages list shows the reminder within moments of its event (lists are eventually consistent).
    const message = (
      await eventually(
        () => messagesOf(conversation.id),
        (ms) => ms.some((m) => m.id === first[0].data.message_id),
      )
    ).find((m) => m.id === first[0].data.message_id);
    expect(message).toMatchObject({
      type: 'template',
      sender: { type: 'system' },
      content: { template: { name: TEMPLATE, parameters: { body: ['Maria', expect.any(String)] } } },
    });
    expect(message.text).toMatch(/^Hi Maria, a reminder of your booking on/);
    expect(message.content.template.quick_reply_payloads).toEqual([
      `reminder:${booking.id}:confirm`,
      `reminder:${booking.id}:cancel`,
      `reminder:${booking.id}:reschedule`,
    ]);
    const both = await eventually(
      () => remindersOf(booking.id),
      (list) => list.length >= 2,
      90_000 + scheduledRunLateMs(),
    );
    const secondAt = Date.parse(both.find((e) => e.data.offset_minutes === 5).created_at);
    // Not before its time by the scheduler's clock, which the chaos mode skews (docs/chaos.md).
    expect(secondAt).toBeGreaterThanOrEqual(Date.parse(booking.start_at) - 5 * MINUTE - serverClockSkewMs());
    // Later runs of the scheduler send nothing more.
    await new Promise((r) => setTimeout(r, 4000));
    expect((await remindersOf(booking.id)).map((e) => e.data.offset_minutes).sort()).toEqual([5, 6]);
  }, 220_000);

  it('Confirm confirms the booking and Cancel cancels it, each with its event and a reply', async () => {
    const phone = '+4915100000102';
    const conversation = await customerConversation(phone);
    const booking = await book(conversation, 3 * 60 * MINUTE);
    const confirmed = await tap(phone, 'Confirm', `reminder:${booking.id}:confirm`);
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.message.text).toBe('Confirm');
    await eventually(
      () => bookingOf(booking.id),
      (b) => b.status === 'confirmed',
    );
    await tap(phone, 'Cancel', `reminder:${booking.id}:cancel`);
    const cancelled = await eventually(
      () => bookingOf(booking.id),
      (b) => b.status === 'cancelled',
    );
    expect(cancelled.cancellation.by).toEqual({ type: 'customer', id: conversation.customer.id });
    const answers = await eventsOf(
      t,
      'booking.reminder.answered',
      (l) => l.filter((e) => e.data.booking.id === booking.id).length >= 2,
    );
    expect(
      answers
        .filter((e) => e.data.booking.id === booking.id)
        .map((e) => e.data.answer)
        .sort(),
    ).toEqual(['cancel', 'confirm']);
    const systemTexts = async () =>
      (await messagesOf(conversation.id)).filter((m) => m.sender.type === 'system').map((m) => m.text as string);
    const replies = await eventually(
      systemTexts,
      (texts) => texts.some((x) => /confirmed/.test(x)) && texts.includes('Your booking is cancelled.'),
    );
    expect(replies).toEqual(expect.arrayContaining([expect.stringMatching(/confirmed/), 'Your booking is cancelled.']));
    // Another customer's tap on this booking does nothing: no answer, no reply. The stream reactions to its
    // message have run once the message's analysis is on it: the tap's reaction comes first.
    const other = await tap('+4915100000199', 'Confirm', `reminder:${booking.id}:confirm`);
    expect(other.status).toBe(201);
    await eventually(
      () => messagesOf(other.body.conversation.id),
      (ms) => ms.some((m) => m.id === other.body.message.id && m.analysis),
      60_000,
    );
    expect(await bookingOf(booking.id)).toMatchObject({ status: 'cancelled', version: cancelled.version });
    expect((await messagesOf(other.body.conversation.id)).filter((m) => m.sender.type === 'system')).toEqual([]);
    const answered = (await eventsOf(t, 'booking.reminder.answered')).filter((e) => e.data.booking.id === booking.id);
    expect(answered.map((e) => e.data.answer).sort()).toEqual(['cancel', 'confirm']);
  }, 150_000);

  it('Reschedule offers the nearest free times as a list, and the pick moves the booking and its reminders', async () => {
    const phone = '+4915100000103';
    const conversation = await customerConversation(phone);
    const booking = await book(conversation, 5 * 60 * MINUTE, 'confirmed');
    await tap(phone, 'Reschedule', `reminder:${booking.id}:reschedule`);
    const list = await eventually(
      () => messagesOf(conversation.id),
      (ms) => ms.some((m) => m.type === 'interactive'),
    );
    const offer = list.find((m) => m.type === 'interactive').content.interactive;
    expect(offer).toMatchObject({ type: 'list', button: 'Free times' });
    const rows = offer.sections[0].rows;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(10);
    const pick = rows[0];
    await tap(phone, pick.title, pick.id);
    const moved = await eventually(
      () => bookingOf(booking.id),
      (b) => b.start_at !== booking.start_at,
    );
    expect(Date.parse(moved.start_at)).toBe(Number(pick.id.split(':')[2]));
    expect(Date.parse(moved.end_at) - Date.parse(moved.start_at)).toBe(30 * MINUTE);
    // Each event lags on its own (and comes from its own stream shard): wait for both answers.
    const answersOf = (l: any[]) => l.filter((e) => e.data.booking.id === booking.id).map((e) => e.data.answer);
    const answers = await eventsOf(t, 'booking.reminder.answered', (l) =>
      ['reschedule', 'reschedule_to'].every((a) => answersOf(l).includes(a)),
    );
    expect(answersOf(answers)).toEqual(expect.arrayContaining(['reschedule', 'reschedule_to']));
  });

  it('a booking moved to start soon is reminded of its new time; a cancelled one is not reminded', async () => {
    const conversation = await customerConversation('+4915100000104');
    const moving = await book(conversation, 3 * 60 * MINUTE);
    const dropped = await book(conversation, 6 * MINUTE + 3000);
    await call('DELETE', `/bookings/${dropped.id}`, authOf(t));
    const newStart = new Date(Date.now() + 6 * MINUTE + 3000);
    const res = await call('PATCH', `/bookings/${moving.id}`, {
      ...authOf(t),
      body: { start_at: newStart.toISOString(), end_at: new Date(newStart.getTime() + 30 * MINUTE).toISOString() },
    });
    expect(res.status).toBe(200);
    const sent = await eventually(
      () => remindersOf(moving.id),
      (l) => l.length >= 1,
      30_000 + scheduledRunLateMs(),
    );
    expect(sent[0].data.booking.start_at).toBe(newStart.toISOString());
    await new Promise((r) => setTimeout(r, 3000));
    expect(await remindersOf(dropped.id)).toEqual([]);
  }, 95_000);
});

describe("a booking reminder in the customer's language", () => {
  let own: TestTenant;
  const approvedTemplate = async (name: string, language: string, text: string) => {
    const created = await call('POST', '/templates', {
      ...authOf(own),
      body: {
        channel: 'sandbox',
        name,
        language,
        category: 'utility',
        body: { text, examples: ['Maria', 'Tue 10:00'] },
        buttons: ['Confirm', 'Cancel', 'Reschedule'].map((b) => ({ type: 'quick_reply', text: b })),
      },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () => (await call('GET', `/templates/${created.body.id}`, authOf(own))).body,
      (tpl) => tpl.status === 'approved',
      20_000 + scheduledRunLateMs(),
    );
  };
  /** A customer who wrote `text`, once the AI has told its language. */
  const customerWriting = async (phone: string, text: string) => {
    const res = await call('POST', '/channels/sandbox/inbound', { ...authOf(own), body: { from: phone, text } });
    expect(res.status).toBe(201);
    const messages = await eventually(
      async () =>
        (await call('GET', `/conversations/${res.body.conversation.id}/messages`, authOf(own))).body.data as any[],
      (ms) => ms.some((m) => m.analysis),
    );
    return { conversation: res.body.conversation, language: messages.find((m) => m.analysis).analysis.language };
  };

  beforeAll(async () => {
    own = await createTenant();
    await approvedTemplate('visit_reminder', 'en', 'Hi {{1}}, a reminder of your booking on {{2}}.');
    await approvedTemplate('visit_reminder', 'de', 'Hallo {{1}}, wir erinnern an Ihren Termin am {{2}}.');
    const policy = await call('PATCH', '/reminder-policy', {
      ...authOf(own),
      body: {
        enabled: true,
        offsets_minutes: [5],
        templates: [
          { name: 'visit_reminder', language: 'en' },
          { name: 'visit_reminder', language: 'de' },
        ],
        default_language: 'en',
      },
    });
    expect(policy.status).toBe(200);
  }, 130_000);

  it('uses the template in the language the customer writes in, and the default for another', async () => {
    const german = await customerWriting(
      '+4915100000111',
      'Hallo! Kann ich morgen Vormittag einen Termin für einen Haarschnitt bekommen?',
    );
    const french = await customerWriting('+33612345678', 'Bonjour, je voudrais prendre rendez-vous demain matin.');
    expect([german.language, french.language]).toEqual(['de', 'fr']);
    const start = new Date(Date.now() + 5 * MINUTE + 4000);
    const booked = await Promise.all(
      [german, french].map(async ({ conversation }) => {
        const res = await call('POST', '/bookings', {
          ...authOf(own),
          body: {
            customer: { id: conversation.customer.id },
            conversation_id: conversation.id,
            service: 'Haircut',
            start_at: start.toISOString(),
            end_at: new Date(start.getTime() + 30 * MINUTE).toISOString(),
            timezone: 'Europe/Berlin',
          },
        });
        expect(res.status).toBe(201);
        return res.body;
      }),
    );
    const sent = await eventually(
      async () =>
        (await eventsOf(own, 'booking.reminder.sent')).filter((e) => booked.some((b) => b.id === e.data.booking.id)),
      (list) => list.length === 2,
      95_000,
    );
    const reminderOf = async (conversationId: string) => {
      const event = sent.find((e) => e.data.conversation_id === conversationId);
      const messages = await eventually(
        async () => (await call('GET', `/conversations/${conversationId}/messages`, authOf(own))).body.data as any[],
        (ms) => ms.some((m) => m.id === event.data.message_id),
      );
      return messages.find((m) => m.id === event.data.message_id);
    };
    const toGerman = await reminderOf(german.conversation.id);
    expect(toGerman.content.template).toMatchObject({ name: 'visit_reminder', language: 'de' });
    expect(toGerman.text).toMatch(/^Hallo .*, wir erinnern an Ihren Termin am /);
    const toFrench = await reminderOf(french.conversation.id);
    expect(toFrench.content.template).toMatchObject({ name: 'visit_reminder', language: 'en' });
    expect(toFrench.text).toMatch(/^Hi .*, a reminder of your booking on /);
  }, 155_000);
});
