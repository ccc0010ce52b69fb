import {
  hoursAreDisjoint,
  hoursOn,
  isCalendarDate,
  normalizedHours,
  openWithin,
  outsideHoursProblem,
  freeDaysAhead,
  weekAhead,
  weekdayOf,
  type Schedule,
} from '../../functions/bookings/schedule';
import { instantOfWallClock, zonedDate, zoneOffsetMinutes } from '../../functions/platform/time-zones';

const weekdays = (hours: { start: string; end: string }[]) => ({
  mon: hours,
  tue: hours,
  wed: hours,
  thu: hours,
  fri: hours,
});

const schedule = (overrides: Partial<Schedule> = {}): Schedule => ({
  resource_id: 'chair-1',
  tenant_id: 't',
  timezone: 'Europe/Berlin',
  ...normalizedHours(weekdays([{ start: '09:00', end: '17:00' }]), []),
  buffer_before_minutes: 0,
  buffer_after_minutes: 0,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  version: 1,
  ...overrides,
});

const span = (start_at: string, end_at: string) => ({ start_at, end_at });

describe('time zones', () => {
  it('finds the instant a wall clock shows, on either side of a daylight-saving change', () => {
    const wall = (text: string) => Date.parse(`${text}Z`);
    const at = (tz: string, text: string) => new Date(instantOfWallClock(tz, wall(text))).toISOString();
    expect(at('Europe/Berlin', '2026-03-28T09:00:00')).toBe('2026-03-28T08:00:00.000Z');
    expect(at('Europe/Berlin', '2026-03-29T09:00:00')).toBe('2026-03-29T07:00:00.000Z');
    // Skipped as clocks spring forward: the instant they jump (02:00 becomes 03:00), to the minute.
    expect(at('Europe/Berlin', '2026-03-29T02:30:00')).toBe('2026-03-29T01:00:00.000Z');
    expect(at('America/New_York', '2026-03-08T02:30:00')).toBe('2026-03-08T07:00:00.000Z');
    expect(at('Australia/Lord_Howe', '2026-10-04T02:15:00')).toBe('2026-10-03T15:30:00.000Z');
    // Shown twice as they fall back: the first showing, in both hemispheres' conventions.
    expect(at('Europe/Berlin', '2026-10-25T02:30:00')).toBe('2026-10-25T00:30:00.000Z');
    expect(at('America/New_York', '2026-11-01T01:30:00')).toBe('2026-11-01T05:30:00.000Z');
    expect(at('Asia/Kolkata', '2026-06-01T09:00:00')).toBe('2026-06-01T03:30:00.000Z');
    expect(zoneOffsetMinutes('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe(-240);
  });

  it('names the calendar date a zone shows', () => {
    expect(zonedDate('Pacific/Kiritimati', new Date('2026-11-24T12:00:00Z'))).toBe('2026-11-25');
    expect(zonedDate('America/Los_Angeles', new Date('2026-11-24T07:00:00Z'))).toBe('2026-11-23');
  });
});

describe('schedule rules', () => {
  it('accepts hours that touch and refuses hours that overlap', () => {
    expect(
      hoursAreDisjoint([
        { start: '13:00', end: '17:00' },
        { start: '09:00', end: '13:00' },
      ]),
    ).toBe(true);
    expect(
      hoursAreDisjoint([
        { start: '09:00', end: '13:00' },
        { start: '12:59', end: '17:00' },
      ]),
    ).toBe(false);
  });

  it('knows calendar dates and weekdays', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(weekdayOf('2026-11-23')).toBe('mon');
    expect(weekdayOf('2026-11-29')).toBe('sun');
  });

  it('stores every weekday, each day in order, and the overrides by date', () => {
    const normalized = normalizedHours(
      {
        mon: [
          { start: '13:00', end: '17:00' },
          { start: '09:00', end: '12:00' },
        ],
      },
      [
        { date: '2026-12-31', hours: [] },
        { date: '2026-12-24', hours: [{ start: '09:00', end: '12:00' }] },
      ],
    );
    expect(normalized.weekly_hours).toEqual({
      mon: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '17:00' },
      ],
      tue: [],
      wed: [],
      thu: [],
      fri: [],
      sat: [],
      sun: [],
    });
    expect(normalized.date_overrides.map((o) => o.date)).toEqual(['2026-12-24', '2026-12-31']);
  });

  it('takes a date override over the weekday', () => {
    const s = schedule({ date_overrides: [{ date: '2026-12-24', hours: [{ start: '09:00', end: '12:00' }] }] });
    expect(hoursOn(s, '2026-12-24')).toEqual([{ start: '09:00', end: '12:00' }]);
    expect(hoursOn(s, '2026-12-23')).toEqual([{ start: '09:00', end: '17:00' }]);
    expect(hoursOn(s, '2026-12-26')).toEqual([]);
  });
});

describe('opening hours in time', () => {
  it('places wall-clock hours in UTC, following the zone across a daylight-saving change', () => {
    // Friday 27 March to Monday 30 March 2026: Berlin moves from +01:00 to +02:00 on Sunday the 29th.
    const open = openWithin(schedule(), span('2026-03-27T00:00:00.000Z', '2026-03-31T00:00:00.000Z'));
    expect(open).toEqual([
      span('2026-03-27T08:00:00.000Z', '2026-03-27T16:00:00.000Z'),
      span('2026-03-30T07:00:00.000Z', '2026-03-30T15:00:00.000Z'),
    ]);
  });

  it('clips to the window and joins a day open to 24:00 with the next one open from 00:00', () => {
    const s = schedule({
      timezone: 'UTC',
      ...normalizedHours(
        {
          fri: [{ start: '20:00', end: '24:00' }],
          sat: [
            { start: '00:00', end: '02:00' },
            { start: '10:00', end: '12:00' },
          ],
        },
        [],
      ),
    });
    expect(openWithin(s, span('2026-11-27T21:00:00.000Z', '2026-11-28T11:00:00.000Z'))).toEqual([
      span('2026-11-27T21:00:00.000Z', '2026-11-28T02:00:00.000Z'),
      span('2026-11-28T10:00:00.000Z', '2026-11-28T11:00:00.000Z'),
    ]);
  });

  it('reaches a day that starts before the window in a zone behind UTC', () => {
    const s = schedule({
      timezone: 'America/Los_Angeles',
      ...normalizedHours({ mon: [{ start: '18:00', end: '23:00' }] }, []),
    });
    // Monday 23 November 18:00–23:00 in Los Angeles is Tuesday 02:00–07:00 UTC.
    expect(openWithin(s, span('2026-11-24T00:00:00.000Z', '2026-11-25T00:00:00.000Z'))).toEqual([
      span('2026-11-24T02:00:00.000Z', '2026-11-24T07:00:00.000Z'),
    ]);
  });

  it('opens at the jump when the hours start in an hour the clocks skip', () => {
    const s = schedule({
      timezone: 'America/New_York',
      ...normalizedHours({ sun: [{ start: '02:30', end: '04:00' }] }, []),
    });
    // Sunday 8 March 2026: 02:00 EST becomes 03:00 EDT at 07:00Z, so the hours run 07:00Z to 08:00Z.
    expect(openWithin(s, span('2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z'))).toEqual([
      span('2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'),
    ]);
  });

  it('names the day a booking across midnight is first closed on', () => {
    const s = schedule({
      timezone: 'UTC',
      ...normalizedHours({ fri: [{ start: '20:00', end: '24:00' }], sat: [{ start: '00:00', end: '01:00' }] }, []),
    });
    expect(outsideHoursProblem(s, span('2026-11-27T23:00:00.000Z', '2026-11-28T00:30:00.000Z'))).toBeNull();
    expect(outsideHoursProblem(s, span('2026-11-27T23:00:00.000Z', '2026-11-28T02:00:00.000Z'))).toBe(
      'chair-1 is not open for all of that time: on 2026-11-28 it is open 00:00\u201301:00 (UTC).',
    );
  });

  it('accepts a booking wholly within the hours and says which hours a refused one missed', () => {
    const s = schedule({
      ...normalizedHours(
        weekdays([
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ]),
        [{ date: '2026-12-25', hours: [] }],
      ),
    });
    expect(outsideHoursProblem(s, span('2026-12-01T08:00:00.000Z', '2026-12-01T11:00:00.000Z'))).toBeNull();
    expect(outsideHoursProblem(s, span('2026-12-01T09:00:00+01:00', '2026-12-01T12:00:00+01:00'))).toBeNull();
    expect(outsideHoursProblem(s, span('2026-12-01T10:30:00.000Z', '2026-12-01T12:30:00.000Z'))).toBe(
      'chair-1 is not open for all of that time: on 2026-12-01 it is open 09:00\u201312:00, 13:00\u201317:00 (Europe/Berlin).',
    );
    expect(outsideHoursProblem(s, span('2026-12-25T09:00:00.000Z', '2026-12-25T10:00:00.000Z'))).toBe(
      'chair-1 is not open for all of that time: on 2026-12-25 it is closed (Europe/Berlin).',
    );
    // Saturday: no hours at all.
    expect(outsideHoursProblem(s, span('2026-12-05T09:00:00.000Z', '2026-12-05T10:00:00.000Z'))).toMatch(/closed/);
  });

  it('walks the days up to the end of year 9999 and no further, and refuses a window it would walk too long', () => {
    // The last day of the calendar, ahead of UTC: the zone's next day is in year 10000, which no date string
    // compares correctly with (before, the walk over days never ended).
    const tokyo = schedule({
      timezone: 'Asia/Tokyo',
      ...normalizedHours({ fri: [{ start: '09:00', end: '17:00' }] }, []),
    });
    expect(openWithin(tokyo, span('9999-12-30T00:00:00.000Z', '9999-12-31T23:59:59.999Z'))).toEqual([
      span('9999-12-31T00:00:00.000Z', '9999-12-31T08:00:00.000Z'),
    ]);
    expect(outsideHoursProblem(tokyo, span('9999-12-31T10:00:00.000Z', '9999-12-31T11:00:00.000Z'))).toMatch(
      /not open/,
    );
    expect(() => openWithin(tokyo, span('2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'))).toThrow(RangeError);
  });
});

describe('the week ahead', () => {
  it('joins the resources\u2019 hours day by day, in the business\u2019s zone, with their date overrides', () => {
    const chair = schedule({ date_overrides: [{ date: '2026-11-26', hours: [] }] });
    const room = schedule({
      resource_id: 'room-1',
      timezone: 'Europe/London',
      ...normalizedHours({ thu: [{ start: '07:00', end: '09:00' }], sat: [{ start: '09:00', end: '13:00' }] }, []),
    });
    // Tuesday 24 November 2026, 23:30 UTC: in Berlin it is already Wednesday.
    const days = weekAhead([chair, room], new Date('2026-11-24T23:30:00Z'), 'Europe/Berlin');
    expect(days).toEqual([
      { date: '2026-11-25', hours: [{ start: '09:00', end: '17:00' }] },
      // The chair is closed on the 26th; the room opens 07:00–09:00 London time, 08:00–10:00 in Berlin.
      { date: '2026-11-26', hours: [{ start: '08:00', end: '10:00' }] },
      { date: '2026-11-27', hours: [{ start: '09:00', end: '17:00' }] },
      { date: '2026-11-28', hours: [{ start: '10:00', end: '14:00' }] },
      { date: '2026-11-29', hours: [] },
      { date: '2026-11-30', hours: [{ start: '09:00', end: '17:00' }] },
      { date: '2026-12-01', hours: [{ start: '09:00', end: '17:00' }] },
    ]);
  });

  it('leaves the week unsaid when a stretch would end before it starts (the repeated hour, another zone)', () => {
    // 00:30–01:15 UTC on 25 October 2026 is 01:30 BST to 01:15 GMT in London: the clocks go back between.
    const night = schedule({
      timezone: 'UTC',
      ...normalizedHours({}, [{ date: '2026-10-25', hours: [{ start: '00:30', end: '01:15' }] }]),
    });
    expect(weekAhead([night], new Date('2026-10-24T12:00:00Z'), 'Europe/London')).toBeUndefined();
    expect(weekAhead([night], new Date('2026-10-24T12:00:00Z'), 'UTC')?.[1]).toEqual({
      date: '2026-10-25',
      hours: [{ start: '00:30', end: '01:15' }],
    });
  });

  it('keeps a zone\u2019s own hours across its clock change', () => {
    const berlin = schedule();
    // Friday 23 to Thursday 29 October 2026: Berlin goes back to +01:00 on Sunday the 25th.
    const days = weekAhead([berlin], new Date('2026-10-23T10:00:00Z'), 'Europe/Berlin');
    expect(days?.map((d) => d.hours.map((h) => `${h.start}-${h.end}`).join())).toEqual([
      '09:00-17:00',
      '',
      '',
      '09:00-17:00',
      '09:00-17:00',
      '09:00-17:00',
      '09:00-17:00',
    ]);
  });

  it('says 24:00 for a day open to midnight', () => {
    const late = schedule({ timezone: 'UTC', ...normalizedHours({ fri: [{ start: '18:00', end: '24:00' }] }, []) });
    expect(weekAhead([late], new Date('2026-11-27T10:00:00Z'), 'UTC')?.[0]).toEqual({
      date: '2026-11-27',
      hours: [{ start: '18:00', end: '24:00' }],
    });
  });

  it('finds the free times ahead: open, not held, with room for the buffers, in stretches worth offering', () => {
    const berlin = (clock: string, date = '2031-03-03') => new Date(`${date}T${clock}:00+01:00`).toISOString();
    // Monday 3 March 2031 at 10:07 in Berlin; chair-1 is open 09:00-17:00 on weekdays and keeps 15 minutes
    // after each booking. It is booked 11:00-12:00 (held to 12:15) and 16:20-16:40 (held to 16:55).
    const chair = schedule({ buffer_after_minutes: 15 });
    const held = [
      { start_at: berlin('11:00'), end_at: berlin('12:15') },
      { start_at: berlin('16:20'), end_at: berlin('16:55') },
    ];
    const now = new Date(berlin('10:07'));
    const days = freeDaysAhead([{ schedule: chair, held }], now, 'Europe/Berlin', 3);
    // From the next quarter hour; a new booking must end 15 minutes before 11:00; 12:15-16:05 is the
    // gap before the second booking; the 20 minutes after 16:55 (to 17:00) are too short to offer.
    expect(days).toEqual([
      {
        date: '2031-03-03',
        hours: [
          { start: '10:15', end: '10:45' },
          { start: '12:15', end: '16:05' },
        ],
      },
      { date: '2031-03-04', hours: [{ start: '09:00', end: '17:00' }] },
      { date: '2031-03-05', hours: [{ start: '09:00', end: '17:00' }] },
    ]);
    // Another resource free over the chair's lunch booking makes the business free then; the weekend is
    // left out as closed, so Friday comes after Thursday.
    const room = schedule({
      resource_id: 'room-1',
      weekly_hours: { ...chair.weekly_hours, mon: [{ start: '10:00', end: '12:00' }] },
    });
    const friday = freeDaysAhead(
      [
        { schedule: chair, held },
        { schedule: room, held: [] },
      ],
      new Date(berlin('10:07', '2031-03-06')),
      'Europe/Berlin',
      3,
    );
    expect(friday?.map((d) => d.date)).toEqual(['2031-03-06', '2031-03-07', '2031-03-10']);
    const monday = freeDaysAhead(
      [
        { schedule: chair, held },
        { schedule: room, held: [] },
      ],
      now,
      'Europe/Berlin',
      1,
    );
    expect(monday?.[0]?.hours).toEqual([
      { start: '10:15', end: '12:00' },
      { start: '12:15', end: '16:05' },
    ]);
    // Free time is counted on one resource: 20 minutes left on the chair and the next 20 on the room are
    // no 30 minutes to offer, though they meet.
    const lateRoom = schedule({
      resource_id: 'room-2',
      ...normalizedHours({ tue: [{ start: '17:00', end: '17:20' }] }, []),
    });
    const tuesday = freeDaysAhead(
      [
        { schedule: chair, held: [{ start_at: berlin('09:00', '2031-03-04'), end_at: berlin('16:40', '2031-03-04') }] },
        { schedule: lateRoom, held: [] },
      ],
      new Date(berlin('08:00', '2031-03-04')),
      'Europe/Berlin',
      1,
    );
    expect(tuesday[0]?.date).toBe('2031-03-05');
    // After closing on Friday, with nothing open at the weekend, the next free day is Monday.
    const evening = freeDaysAhead(
      [{ schedule: chair, held: [] }],
      new Date(berlin('17:30', '2031-03-07')),
      'Europe/Berlin',
      1,
    );
    expect(evening).toEqual([{ date: '2031-03-10', hours: [{ start: '09:00', end: '17:00' }] }]);
  });
});
