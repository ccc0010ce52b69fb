import { buffersText, parseHours, summarizeWeek } from '../../dashboard/src/opening-hours';

describe('opening hours as the dashboard writes them', () => {
  it('reads hours in the ways people type them', () => {
    expect(parseHours('09:00–12:30, 13:30-18:00')).toEqual({
      hours: [
        { start: '09:00', end: '12:30' },
        { start: '13:30', end: '18:00' },
      ],
    });
    expect(parseHours('9 to 1730; 18:00 — 24:00')).toEqual({
      hours: [
        { start: '09:00', end: '17:30' },
        { start: '18:00', end: '24:00' },
      ],
    });
    expect(parseHours('')).toEqual({ hours: [] });
    expect(parseHours(' Closed ')).toEqual({ hours: [] });
  });

  it('says what is wrong with hours it cannot read', () => {
    expect(parseHours('9 to')).toEqual({ error: '"9 to" is not a span of time like 09:00–17:00.' });
    expect(parseHours('25:00-26:00')).toEqual({ error: '"25:00-26:00" is not a span of time like 09:00–17:00.' });
    expect(parseHours('9-5')).toEqual({
      error: '09:00–05:00 ends before it starts: write times on the 24-hour clock (17:00, not 5).',
    });
    expect(parseHours('22:00-02:00')).toEqual({
      error: '22:00–02:00 runs past midnight: end this day at 24:00 and give the next day 00:00–02:00.',
    });
  });

  it('sums a week up in one line, days with the same hours together', () => {
    const nine = [{ start: '09:00', end: '17:00' }];
    expect(
      summarizeWeek({
        mon: nine,
        tue: nine,
        wed: nine,
        thu: nine,
        fri: nine,
        sat: [{ start: '10:00', end: '14:00' }],
        sun: [],
      }),
    ).toBe('Mon–Fri 09:00–17:00 · Sat 10:00–14:00');
    expect(summarizeWeek({ mon: nine, tue: [], wed: nine, thu: [], fri: [], sat: [], sun: [] })).toBe(
      'Mon 09:00–17:00 · Wed 09:00–17:00',
    );
    expect(summarizeWeek({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] })).toBe('Closed every day');
  });

  it('says the time kept free around bookings', () => {
    const text = (before: number, after: number) =>
      buffersText({ buffer_before_minutes: before, buffer_after_minutes: after });
    expect(text(10, 15)).toBe('10 minutes before and 15 after each booking');
    expect(text(0, 15)).toBe('15 minutes after each booking');
    expect(text(5, 0)).toBe('5 minutes before each booking');
    expect(text(0, 0)).toBe('no time');
  });
});
