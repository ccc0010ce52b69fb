import fc from 'fast-check';
import { authOf, call, createTenant, type ApiResponse, type TestTenant } from '../support/api';

/**
 * Property: extreme and malformed dates thrown at bookings (create and reschedule), availability and
 * schedules, on a resource that HAS opening hours, get a prompt 2xx or problem+json 4xx: never a 5xx, never
 * an answer that does not come. (A booking on 9999-12-31 once spun the runtime for ever: the walk over the
 * schedule's days compared date strings that grew a fifth year digit.)
 */
const PROMPT_MS = 15_000;
const DAY_MS = 86_400_000;
const RESOURCE = 'chair-bounds';

let t: TestTenant;
let bookingId: string;
beforeAll(async () => {
  t = await createTenant('enterprise', { rate_limit_per_hour: 1_000_000 });
  const open = [{ start: '08:00', end: '20:00' }];
  const schedule = await call('POST', '/schedules', {
    ...authOf(t),
    body: {
      resource_id: RESOURCE,
      timezone: 'Pacific/Kiritimati',
      weekly_hours: { mon: open, tue: open, wed: open, thu: open, fri: open, sat: open, sun: open },
    },
  });
  expect(schedule.status).toBe(201);
  const start = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + 2 * DAY_MS);
  const booking = await call('POST', '/bookings', {
    ...authOf(t),
    body: bookingBody(start.toISOString(), new Date(start.getTime() + 3_600_000).toISOString()),
  });
  expect(booking.status).toBe(201);
  bookingId = booking.body.id;
});

function bookingBody(start_at: unknown, end_at: unknown) {
  return {
    customer: { phone: '+4915110000077' },
    service: 'Check-up',
    resource_id: RESOURCE,
    start_at,
    end_at,
    timezone: 'Europe/Berlin',
  };
}

const EXTREMES = [
  '9999-12-31T10:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T20:00:00-14:00',
  '9999-12-31T08:00:00+14:00',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30T10:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-06-30T23:59:60Z',
  '',
  'tomorrow',
];

/** Instants in every shape: extreme years, the edges of the accepted range, near and valid, malformed. */
const instant = fc.oneof(
  fc.constantFrom(...EXTREMES),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: 0, max: 9999 }).map((y) => `${String(y).padStart(4, '0')}-12-31T12:00:00Z`),
  // Around five years ahead, the end of the accepted range.
  fc.integer({ min: -3, max: 3 }).map((days) => {
    const latest = new Date();
    latest.setUTCFullYear(latest.getUTCFullYear() + 5);
    return new Date(latest.getTime() + days * DAY_MS).toISOString();
  }),
  // Valid days ahead at a whole hour, so requests also succeed and run the schedule's walk.
  fc
    .integer({ min: 1, max: 5 * 365 })
    .map((days) => new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS + 9 * 3_600_000).toISOString()),
  fc.string({ maxLength: 30 }),
);

/** The end of a span: an hour after its start (when the start is a time at all), or any instant. */
const span = instant.chain((start) => {
  const ms = Date.parse(start);
  const later =
    Number.isFinite(ms) && ms + 3_600_000 <= 8.64e15 ? [fc.constant(new Date(ms + 3_600_000).toISOString())] : [];
  return fc.tuple(fc.constant(start), fc.oneof(...later, instant));
});

/** A date as `date_overrides` take it: the day of any instant above, or a malformed one. */
const calendarDate = fc.oneof(
  instant.map((i) => i.slice(0, 10)),
  fc.constantFrom('9999-12-31', '0000-01-01', '+10000-01-01', '2028-02-29', '2027-02-29', '1969-12-31'),
);

function expectPrompt(res: ApiResponse, what: unknown) {
  const problem = res.status >= 400 ? res.headers.get('content-type') : 'application/problem+json';
  expect([JSON.stringify(what), res.status < 500, problem]).toEqual([
    JSON.stringify(what),
    true,
    'application/problem+json',
  ]);
}

const runs = { numRuns: 60 };

describe('extreme and malformed dates on a resource with opening hours', () => {
  it('booking create answers promptly with 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(span, async ([start_at, end_at]) => {
        const body = bookingBody(start_at, end_at);
        const res = await call('POST', '/bookings', { ...authOf(t), body, timeoutMs: PROMPT_MS });
        expectPrompt(res, body);
        if (res.status === 201)
          await call('DELETE', `/bookings/${res.body.id}`, { ...authOf(t), timeoutMs: PROMPT_MS });
      }),
      { ...runs, examples: [[['9999-12-31T10:00:00Z', '9999-12-31T11:00:00Z']]] },
    );
  }, 180_000);

  it('booking reschedule answers promptly with 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(span, async ([start_at, end_at]) => {
        const body = { start_at, end_at };
        const res = await call('PATCH', `/bookings/${bookingId}`, { ...authOf(t), body, timeoutMs: PROMPT_MS });
        expectPrompt(res, body);
      }),
      { ...runs, examples: [[['9999-12-31T10:00:00Z', '9999-12-31T11:00:00Z']]] },
    );
  }, 180_000);

  it('availability answers promptly with 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(span, fc.boolean(), async ([from, to], slots) => {
        const query = new URLSearchParams({
          resource_id: RESOURCE,
          from,
          to,
          ...(slots ? { duration_minutes: '30' } : {}),
        });
        const res = await call('GET', `/bookings/availability?${query.toString()}`, {
          ...authOf(t),
          timeoutMs: PROMPT_MS,
        });
        expectPrompt(res, Object.fromEntries(query));
      }),
      { ...runs, examples: [[['9999-12-31T00:00:00Z', '9999-12-31T23:00:00Z'], true]] },
    );
  }, 180_000);

  it('schedule date overrides answer promptly with 2xx or 4xx, and an accepted one is used', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(calendarDate, { minLength: 1, maxLength: 3 }), async (dates) => {
        const date_overrides = [...new Set(dates)].map((date) => ({ date, hours: [{ start: '10:00', end: '12:00' }] }));
        const resource_id = `bounds-${++n}`;
        const created = await call('POST', '/schedules', {
          ...authOf(t),
          body: { resource_id, timezone: 'Asia/Tokyo', weekly_hours: {}, date_overrides },
          timeoutMs: PROMPT_MS,
        });
        expectPrompt(created, date_overrides);
        const changed = await call('PATCH', `/schedules/${RESOURCE}`, {
          ...authOf(t),
          body: { date_overrides },
          timeoutMs: PROMPT_MS,
        });
        expectPrompt(changed, date_overrides);
        if (created.status !== 201) return;
        // Availability on an accepted override's day walks the schedule there.
        const day = date_overrides[0]!.date;
        const query = new URLSearchParams({ resource_id, from: `${day}T00:00:00+09:00`, to: `${day}T23:59:00+09:00` });
        expectPrompt(
          await call('GET', `/bookings/availability?${query.toString()}`, { ...authOf(t), timeoutMs: PROMPT_MS }),
          query.toString(),
        );
      }),
      { ...runs, examples: [[['9999-12-31']]] },
    );
  }, 180_000);

  it('refuses a booking beyond the range with 422 date_out_of_range naming the field and the bound', async () => {
    const res = await call('POST', '/bookings', {
      ...authOf(t),
      body: bookingBody('9999-12-31T10:00:00Z', '9999-12-31T11:00:00Z'),
      timeoutMs: PROMPT_MS,
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('date_out_of_range');
    expect(res.body.errors).toEqual([
      { path: 'start_at', message: expect.stringMatching(/^must be at most 5 years from now \(\d{4}-/) },
      { path: 'end_at', message: expect.stringMatching(/^must be at most 5 years from now \(\d{4}-/) },
    ]);
    const snooze = await call('POST', '/conversations', {
      ...authOf(t),
      body: { channel: 'sandbox', customer: { phone: '+4915110000078' } },
    });
    expect(snooze.status).toBe(201);
    const snoozed = await call('PATCH', `/conversations/${snooze.body.id}`, {
      ...authOf(t),
      body: { status: 'snoozed', snoozed_until: '9999-12-31T00:00:00Z' },
    });
    expect([snoozed.status, snoozed.body.code, snoozed.body.errors?.[0]?.path]).toEqual([
      422,
      'date_out_of_range',
      'snoozed_until',
    ]);
    const events = await call('GET', '/events?since=1969-12-31T00:00:00Z', authOf(t));
    expect([events.status, events.body.code, events.body.errors?.[0]]).toEqual([
      422,
      'date_out_of_range',
      { path: 'since', message: 'must not be before 1970-01-01' },
    ]);
  });
});
