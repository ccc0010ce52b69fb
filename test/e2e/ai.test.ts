import {
  authOf,
  call,
  createTenant,
  eventsOf,
  eventually,
  listEventually,
  platform,
  type TestTenant,
} from '../support/api';

let t: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant('pro', { timezone: 'Europe/Berlin' }), createTenant()]);
});

const inbound = (from: string, text: string, tenant = t, name = 'Maria Lopez') =>
  call('POST', '/channels/sandbox/inbound', { ...authOf(tenant), body: { from, text, name } });
const conversation = (id: string, tenant = t) => call('GET', `/conversations/${id}`, authOf(tenant));
const analysed = (id: string, count: number) =>
  eventually(
    () => conversation(id),
    (r) => r.body.messages.filter((m: any) => m.direction === 'inbound' && m.analysis).length >= count,
  );
/** The conversation's handoff events, once there is one (the event list is eventually consistent). */
const handoffsOf = async (id: string) => {
  const of = (events: any[]) => events.filter((e) => e.data.conversation.id === id);
  return of(await eventsOf(t, 'conversation.handoff', (events) => of(events).length > 0));
};

describe('POST /ai/analyze', () => {
  it('returns sentiment, intent, top intents, entities in the tenant time zone, language and a handoff verdict', async () => {
    const res = await call('POST', '/ai/analyze', {
      ...authOf(t),
      body: {
        text: 'I was charged twice for my massage tomorrow at 3pm!! Refund the €45 to jo@example.com or call +44 7911 123456',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sentiment: { label: 'negative' },
      intent: { name: 'payment_issue' },
      language: 'en',
      handoff: { recommended: false, reason: null },
      provider: 'local',
    });
    expect(res.body.sentiment.score).toBeLessThan(0);
    expect(res.body.intents).toHaveLength(3);
    const types = res.body.entities.map((e: any) => e.type).sort();
    expect(types).toEqual(['datetime', 'email', 'money', 'phone']);
    const when = res.body.entities.find((e: any) => e.type === 'datetime');
    expect(when.timezone).toBe('Europe/Berlin');
    expect(when.value).toMatch(/T15:00:00\+0[12]:00$/);
  });

  it('recommends a handoff when the customer asks for a person', async () => {
    const res = await call('POST', '/ai/analyze', {
      ...authOf(t),
      body: { text: 'can I speak to a real person please' },
    });
    expect(res.body.handoff).toEqual({ recommended: true, reason: 'request_human' });
  });

  it('analyses a stored message by id, and only within the tenant', async () => {
    const sent = await inbound('+491700000001', 'thank you so much, see you soon!');
    const ids = { conversation_id: sent.body.conversation.id, message_id: sent.body.message.id };
    const res = await call('POST', '/ai/analyze', { ...authOf(t), body: ids });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...ids, sentiment: { label: 'positive' }, intent: { name: 'thanks' } });
    const foreign = await call('POST', '/ai/analyze', { ...authOf(other), body: ids });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
  });

  it.each([
    ['neither form', {}],
    ['empty text', { text: '' }],
    [
      'both forms',
      { text: 'hi', conversation_id: 'conv_01M8097VP4N21KKVHA4G7BR51Q', message_id: 'msg_01M8097VP54R302EV7663AQWE3' },
    ],
    ['a conversation without a message', { conversation_id: 'conv_01M8097VP4N21KKVHA4G7BR51Q' }],
    ['oversized text', { text: 'x'.repeat(5000) }],
    ['an unknown field', { text: 'hi', extra: true }],
  ])('rejects %s with 422', async (_case, body) => {
    const res = await call('POST', '/ai/analyze', { ...authOf(t), body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
  });

  it('needs credentials', async () => {
    expect((await call('POST', '/ai/analyze', { tenant: t.tenantId, body: { text: 'hi' } })).status).toBe(401);
  });
});

describe('automatic analysis and handoff', () => {
  it('stores sentiment and intent on every inbound message, off the request path', async () => {
    const sent = await inbound('+491700000002', 'Hi, what time do you open on Saturday?');
    expect(sent.body.message.analysis).toBeNull();
    const got = await analysed(sent.body.conversation.id, 1);
    expect(got.body.messages[0].analysis).toMatchObject({
      intent: { name: 'opening_hours' },
      sentiment: { label: 'neutral' },
      language: 'en',
      provider: 'local',
    });
    expect(got.body.handoff).toBeNull();
  });

  it('hands off once per episode when the customer asks for a human, and again after resolution', async () => {
    const first = await inbound('+491700000003', 'I want to talk to a human, now');
    const id = first.body.conversation.id;
    const handed = await eventually(
      () => conversation(id),
      (r) => r.body.handoff !== null,
    );
    expect(handed.body.handoff).toMatchObject({ reason: 'request_human', message_id: first.body.message.id });
    await inbound('+491700000003', 'hello?? is anyone there? get me a manager');
    await analysed(id, 2);
    expect(await handoffsOf(id)).toHaveLength(1);
    const [event] = await handoffsOf(id);
    expect(event.data).toMatchObject({
      reason: 'request_human',
      message_id: first.body.message.id,
      conversation: { id, handoff: { reason: 'request_human' } },
    });

    const resolved = await call('PATCH', `/conversations/${id}`, { ...authOf(t), body: { status: 'resolved' } });
    expect(resolved.body.handoff).toBeNull();
    const again = await inbound('+491700000003', 'Let me speak to someone from your team please');
    const next = again.body.conversation.id;
    await eventually(
      () => conversation(next),
      (r) => r.body.handoff !== null,
    );
    expect(await handoffsOf(next)).toHaveLength(1);
    expect(await handoffsOf(id)).toHaveLength(1);
  });

  it('hands off after two clearly negative messages in a row, not after one', async () => {
    const first = await inbound(
      '+491700000004',
      'I was charged twice for my last visit and I am really angry about it',
    );
    const id = first.body.conversation.id;
    await analysed(id, 1);
    expect((await conversation(id)).body.handoff).toBeNull();
    await inbound('+491700000004', 'Still no refund after two weeks, this is absolutely unacceptable!!');
    const handed = await eventually(
      () => conversation(id),
      (r) => r.body.handoff !== null,
    );
    expect(handed.body.handoff.reason).toBe('negative_sentiment');
    expect(await handoffsOf(id)).toHaveLength(1);
  });
});

describe('POST /ai/suggest', () => {
  it('grounds a reschedule reply in the customer and their next booking', async () => {
    const sent = await inbound('+491700000005', 'Hi, something came up, can I move my appointment?');
    const id = sent.body.conversation.id;
    const start = new Date(Date.now() + 3 * 86400_000);
    start.setUTCHours(13, 0, 0, 0);
    const booking = await call('POST', '/bookings', {
      ...authOf(t),
      body: {
        customer: { id: sent.body.conversation.customer.id },
        service: 'Deep tissue massage',
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3600_000).toISOString(),
        timezone: 'Europe/Berlin',
      },
    });
    expect(booking.status).toBe(201);
    // The customer's bookings are read from an index: a booking made a moment ago may take a moment.
    const res = await eventually(
      () => call('POST', '/ai/suggest', { ...authOf(t), body: { conversation_id: id } }),
      (r) => r.status !== 200 || r.body.grounding.next_booking !== null,
    );
    expect(res.status).toBe(200);
    expect(res.body.grounding.next_booking).toMatchObject({ id: booking.body.id, service: 'Deep tissue massage' });
    const [best] = res.body.suggestions;
    expect(best.intent).toBe('reschedule_booking');
    expect(best.text).toContain('Maria');
    expect(best.text).toContain('Deep tissue massage');
    expect(best.text).toMatch(/at 1[45]:00/);
    expect(res.body.suggestions.length).toBeLessThanOrEqual(3);
  });

  it('never invents a booking the customer does not have', async () => {
    const sent = await inbound('+491700000006', 'I need to reschedule my booking please', t, 'Tom');
    const res = await call('POST', '/ai/suggest', {
      ...authOf(t),
      body: { conversation_id: sent.body.conversation.id, count: 5 },
    });
    expect(res.body.grounding.next_booking).toBeNull();
    for (const s of res.body.suggestions)
      expect(s.text).not.toMatch(/\d{1,2}:\d{2}|monday|tuesday|wednesday|thursday|friday|saturday|sunday/i);
    expect(res.body.suggestions[0].text).toContain("can't find an upcoming booking");
  });

  it('works on a transcript without a stored conversation', async () => {
    const res = await call('POST', '/ai/suggest', {
      ...authOf(t),
      body: { messages: [{ text: 'how much is a gel manicure?' }], count: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.suggestions).toHaveLength(1);
    expect(res.body.suggestions[0]).toMatchObject({ intent: 'pricing' });
    expect(res.body.suggestions[0].text.startsWith('Hi,')).toBe(true);
  });

  it('answers when the business is open from its resources\u2019 opening hours, in the tenant\u2019s zone', async () => {
    const shop = await createTenant('pro', { timezone: 'Europe/Berlin' });
    const ask = () =>
      call('POST', '/ai/suggest', {
        ...authOf(shop),
        body: { messages: [{ text: 'what are your opening hours?' }], count: 1 },
      });
    const before = await ask();
    expect(before.body.grounding.opening_hours).toBeNull();
    expect(before.body.suggestions[0].text).toMatch(/Which day are you thinking of coming in\?/);

    const every = [{ start: '09:00', end: '18:00' }];
    const week = { mon: every, tue: every, wed: every, thu: every, fri: every, sat: every, sun: every };
    const created = await call('POST', '/schedules', {
      ...authOf(shop),
      body: { resource_id: 'chair-1', timezone: 'Europe/Berlin', weekly_hours: week },
    });
    expect(created.status).toBe(201);
    // A second resource, in London, open later on Sundays: the business is open while either is.
    await call('POST', '/schedules', {
      ...authOf(shop),
      body: {
        resource_id: 'room-1',
        timezone: 'Europe/London',
        weekly_hours: { sun: [{ start: '17:00', end: '20:00' }] },
      },
    });
    // Schedules are read as listed (eventually consistent): once both are listed, the suggestion sees both.
    await listEventually('/schedules', authOf(shop), (body) => body.data.length === 2);
    const res = await ask();
    expect(res.status).toBe(200);
    const days = res.body.grounding.opening_hours.days as { date: string; hours: { start: string; end: string }[] }[];
    expect(res.body.grounding.opening_hours.timezone).toBe('Europe/Berlin');
    expect(days).toHaveLength(7);
    const sunday = days.find((d) => new Date(`${d.date}T12:00:00Z`).getUTCDay() === 0);
    // 17:00–20:00 in London is 18:00–21:00 in Berlin, so Sunday runs on to 21:00 (London and Berlin keep
    // one hour apart all year).
    expect(sunday?.hours).toEqual([{ start: '09:00', end: '21:00' }]);
    const [best] = res.body.suggestions;
    expect(best.intent).toBe('opening_hours');
    // The days run from today, so Sunday comes first or later depending on the day the test runs.
    expect(best.text).toMatch(/^Hi, our opening hours for the coming days: /);
    expect(best.text).toMatch(/09:00\u201318:00/);
    expect(best.text).toMatch(/Sunday 09:00\u201321:00/);
  });

  it('offers the free times to book: open hours of resources, less their bookings', async () => {
    const shop = await createTenant('pro', { timezone: 'Europe/Berlin' });
    const ask = () =>
      call('POST', '/ai/suggest', {
        ...authOf(shop),
        body: { messages: [{ text: 'Hi, I would like to book an appointment please' }], count: 1 },
      });
    expect((await ask()).body.grounding.free_times).toBeNull();
    const every = [{ start: '09:00', end: '18:00' }];
    const week = { mon: every, tue: every, wed: every, thu: every, fri: every, sat: every, sun: every };
    await call('POST', '/schedules', {
      ...authOf(shop),
      body: { resource_id: 'chair-1', timezone: 'Europe/Berlin', weekly_hours: week, buffer_after_minutes: 15 },
    });
    // Tomorrow in Berlin, 10:00-11:00, holds the chair to 11:15.
    const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
      new Date(Date.now() + 86_400_000),
    );
    // Berlin's offset that day, as `+01:00`.
    const offset = (date: string) =>
      new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
        .formatToParts(new Date(`${date}T12:00:00Z`))
        .find((p) => p.type === 'timeZoneName')
        ?.value.replace('GMT', '') ?? '';
    const booked = await call('POST', '/bookings', {
      ...authOf(shop),
      body: {
        customer: { phone: '+4915110000123' },
        service: 'Haircut',
        resource_id: 'chair-1',
        start_at: `${tomorrow}T10:00:00${offset(tomorrow)}`,
        end_at: `${tomorrow}T11:00:00${offset(tomorrow)}`,
        timezone: 'Europe/Berlin',
      },
    });
    expect(booked.status).toBe(201);
    await listEventually('/schedules', authOf(shop), (body) => body.data.length === 1);
    await listEventually('/bookings', authOf(shop), (body) => body.data.length === 1);
    const res = await ask();
    expect(res.status).toBe(200);
    const free = res.body.grounding.free_times;
    expect(free.timezone).toBe('Europe/Berlin');
    expect(free.days.length).toBeLessThanOrEqual(3);
    // A booking before it must end by 09:45, leaving its own 15 minutes.
    expect(free.days.find((d: { date: string }) => d.date === tomorrow)).toEqual({
      date: tomorrow,
      hours: [
        { start: '09:00', end: '09:45' },
        { start: '11:15', end: '18:00' },
      ],
    });
    const [best] = res.body.suggestions;
    expect(best.intent).toBe('book_appointment');
    expect(best.text).toMatch(
      /^Hi, I'd be happy to book you in\. We have free times: .*\(09:00\u201309:45, 11:15\u201318:00\)/,
    );
  });

  it('answers the day and part of day asked, in the resources\u2019 zone, or says it is closed then', async () => {
    // The tenant keeps UTC; its resource's hours are Berlin's: the suggestion says Berlin's clock times.
    const shop = await createTenant('pro', { timezone: 'UTC' });
    const berlinDay = (offsetDays: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
        new Date(Date.now() + offsetDays * 86_400_000),
      );
    const tomorrow = berlinDay(1);
    const weekdayOf = (date: string) =>
      (['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const)[new Date(`${date}T12:00:00Z`).getUTCDay()]!;
    const every = [{ start: '09:00', end: '18:00' }];
    const week = { mon: every, tue: every, wed: every, thu: every, fri: every, sat: every, sun: every };
    await call('POST', '/schedules', {
      ...authOf(shop),
      body: { resource_id: 'chair-1', timezone: 'Europe/Berlin', weekly_hours: week },
    });
    await listEventually('/schedules', authOf(shop), (body) => body.data.length === 1);
    const ask = (text: string) =>
      call('POST', '/ai/suggest', { ...authOf(shop), body: { messages: [{ text }], count: 1 } });
    const open = await ask('Do you have anything free tomorrow morning?');
    expect(open.status).toBe(200);
    expect(open.body.grounding.opening_hours.timezone).toBe('Europe/Berlin');
    expect(open.body.suggestions[0].text).toMatch(
      /^Hi, on \w+ \d+ \w+ in the morning we have free times: 09:00\u201312:00\. Which time suits you\?$/,
    );
    const german = await ask('Hallo, haben Sie morgen Nachmittag noch einen Termin frei?');
    expect(german.body.suggestions[0].text).toMatch(/nachmittags haben wir freie Zeiten: 12:00\u201317:00\./);

    // Closed tomorrow: it says so and offers the nearest free days instead.
    const closedTomorrow = await call('PATCH', '/schedules/chair-1', {
      ...authOf(shop),
      body: { weekly_hours: { ...week, [weekdayOf(tomorrow)]: [] } },
    });
    expect(closedTomorrow.status).toBe(200);
    const closed = await eventually(
      () => ask('Do you have anything free tomorrow morning?'),
      (r) => /closed/.test(r.body.suggestions[0]?.text ?? ''),
    );
    expect(closed.body.suggestions[0].text).toMatch(
      /^Hi, we're closed on \w+ \d+ \w+ in the morning\. The nearest free times: .*\(09:00\u201312:00\)/,
    );
  });

  it("keeps another tenant's conversation out of reach", async () => {
    const sent = await inbound('+491700000007', 'hello');
    expect(
      (await call('POST', '/ai/suggest', { ...authOf(other), body: { conversation_id: sent.body.conversation.id } }))
        .status,
    ).toBe(404);
  });
});

describe('POST /ai/categorize', () => {
  it('suggests a category and tags, and applies them with conversation.updated', async () => {
    const sent = await inbound(
      '+491700000008',
      'My card was charged twice for the same appointment, please refund one',
    );
    const id = sent.body.conversation.id;
    await call('PATCH', `/conversations/${id}`, { ...authOf(t), body: { tags: ['vip'] } });
    const dry = await call('POST', '/ai/categorize', { ...authOf(t), body: { conversation_id: id } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ category: { name: 'billing' }, applied: false, provider: 'local' });
    expect(dry.body.suggested_tags).toContain('payment-issue');
    expect(dry.body.candidates).toHaveLength(5);
    expect((await conversation(id)).body.category).toBeNull();

    const applied = await call('POST', '/ai/categorize', { ...authOf(t), body: { conversation_id: id, apply: true } });
    expect(applied.body.conversation).toMatchObject({ category: 'billing' });
    expect(applied.body.conversation.tags).toEqual(expect.arrayContaining(['vip', 'payment-issue']));
    const categorisedIn = (events: any[]) =>
      events.filter((e) => e.data.conversation.id === id && e.data.changes.category);
    const categorised = categorisedIn(
      await eventsOf(t, 'conversation.updated', (events) => categorisedIn(events).length > 0),
    );
    expect(categorised).toHaveLength(1);
    expect(categorised[0].data.changes).toMatchObject({
      category: { from: null, to: 'billing' },
      tags: { from: ['vip'] },
    });
  });

  it('is 404 for an unknown or foreign conversation', async () => {
    const sent = await inbound('+491700000009', 'hi');
    expect(
      (
        await call('POST', '/ai/categorize', {
          ...authOf(other),
          body: { conversation_id: sent.body.conversation.id, apply: true },
        })
      ).status,
    ).toBe(404);
    expect((await conversation(sent.body.conversation.id)).body.category).toBeNull();
  });
});

describe('tenant time zone', () => {
  it('is set through the platform API and validated', async () => {
    expect((await platform('PATCH', `/tenants/${other.tenantId}`, { timezone: 'Mars/Olympus' })).status).toBe(422);
    const res = await platform('PATCH', `/tenants/${other.tenantId}`, { timezone: 'America/New_York' });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe('America/New_York');
  });
});
