import { answerAskedTime, askedTime, withinPart } from '../../functions/ai/asked-time';
import { groundedReplies } from '../../functions/ai/replies';
import { speakingZone } from '../../functions/ai/service';

// Wednesday 25 November 2026, 11:00 in Berlin.
const NOW = new Date('2026-11-25T10:00:00Z');
const BERLIN = 'Europe/Berlin';

describe('the day and part of day a customer asks about', () => {
  it.each([
    ['en', 'anything free this Saturday morning?', '2026-11-28', 'morning'],
    ['de', 'Haben Sie Samstagvormittag noch etwas frei?', '2026-11-28', 'morning'],
    ['de', 'Geht es am Freitag nachmittags?', '2026-11-27', 'afternoon'],
    ['es', '¿tenéis algo el sábado por la mañana?', '2026-11-28', 'morning'],
    ['es', '¿tenéis hueco mañana?', '2026-11-26', null],
    ['fr', 'vous avez quelque chose samedi matin ?', '2026-11-28', 'morning'],
    ['pt', 'têm algo livre sábado de manhã?', '2026-11-28', 'morning'],
    ['pt', 'amanhã à tarde?', '2026-11-26', 'afternoon'],
    ['en', 'can I come tomorrow evening', '2026-11-26', 'evening'],
  ] as const)('%s: %s', async (language, text, date, part) => {
    expect(await askedTime(text, NOW, BERLIN, language)).toEqual({ date, part });
  });

  it('is null when no day is named', async () => {
    expect(await askedTime('do you have anything free?', NOW, BERLIN, 'en')).toBeNull();
    expect(await askedTime('Haben Sie vormittags offen?', NOW, BERLIN, 'de')).toBeNull();
  });

  it('clips stretches to the part of day', () => {
    const hours = [
      { start: '09:00', end: '13:00' },
      { start: '14:00', end: '19:00' },
    ];
    expect(withinPart(hours, 'morning')).toEqual([{ start: '09:00', end: '12:00' }]);
    expect(withinPart(hours, 'afternoon')).toEqual([
      { start: '12:00', end: '13:00' },
      { start: '14:00', end: '17:00' },
    ]);
    expect(withinPart(hours, 'evening')).toEqual([{ start: '17:00', end: '19:00' }]);
    expect(withinPart(hours, null)).toEqual(hours);
  });
});

describe('answering the time asked', () => {
  const nine = [{ start: '09:00', end: '17:00' }];
  const week = [
    { date: '2026-11-25', hours: nine },
    { date: '2026-11-26', hours: nine },
    { date: '2026-11-27', hours: nine },
    { date: '2026-11-28', hours: [{ start: '10:00', end: '14:00' }] },
    { date: '2026-11-29', hours: [] },
    { date: '2026-11-30', hours: nine },
    { date: '2026-12-01', hours: nine },
  ];
  const free = week.filter((d) => d.hours.length);
  const book = [{ name: 'book_appointment' as const, confidence: 0.9 }];
  const grounding = { customerName: 'Maria Lopez', nextBooking: null, openingHours: null, freeTimes: null };

  it('offers the free time on the day and part of day asked', () => {
    const answer = answerAskedTime({ date: '2026-11-28', part: 'morning' }, week, free, 3);
    expect(answer).toEqual({
      date: '2026-11-28',
      part: 'morning',
      state: 'free',
      days: [{ date: '2026-11-28', hours: [{ start: '10:00', end: '12:00' }] }],
    });
    const [en] = groundedReplies(book, { ...grounding, askedFor: answer }, 1);
    expect(en?.text).toBe(
      'Hi Maria, on Saturday 28 November in the morning we have free times: 10:00\u201312:00. Which time suits you?',
    );
    const [de] = groundedReplies(book, { ...grounding, askedFor: answer }, 1, 'de');
    expect(de?.text).toBe(
      'Hallo Maria, am Samstag, 28. November vormittags haben wir freie Zeiten: 10:00\u201312:00. Welche Uhrzeit passt Ihnen?',
    );
  });

  it('says it is closed then and offers the nearest free days', () => {
    const answer = answerAskedTime({ date: '2026-11-29', part: 'morning' }, week, free, 2);
    expect(answer?.state).toBe('closed');
    expect(answer?.days.map((d) => d.date)).toEqual(['2026-11-28', '2026-11-30']);
    expect(answer?.days[1]?.hours).toEqual([{ start: '09:00', end: '12:00' }]);
    const [en] = groundedReplies(book, { ...grounding, askedFor: answer }, 1);
    expect(en?.text).toBe(
      "Hi Maria, we're closed on Sunday 29 November in the morning. The nearest free times: " +
        'Saturday 28 November (10:00\u201312:00); Monday 30 November (09:00\u201312:00). Which time suits you?',
    );
    // The evening of an open day is closed too.
    expect(answerAskedTime({ date: '2026-11-28', part: 'evening' }, week, free, 2)?.state).toBe('closed');
  });

  it('says it is full then when open but booked, and says so plainly when the week has nothing', () => {
    const booked = free.filter((d) => d.date !== '2026-11-26');
    const answer = answerAskedTime({ date: '2026-11-26', part: null }, week, booked, 3);
    expect(answer?.state).toBe('full');
    expect(answer?.days.map((d) => d.date)).toEqual(['2026-11-25', '2026-11-27', '2026-11-28']);
    const nothing = answerAskedTime({ date: '2026-11-26', part: null }, week, [], 3);
    const [fr] = groundedReplies(book, { ...grounding, askedFor: nothing }, 1, 'fr');
    expect(fr?.text).toBe(
      "Bonjour Maria, tout est réservé jeudi 26 novembre, et je n'ai aucun créneau libre la semaine prochaine.",
    );
  });

  it('leaves a day outside the week unanswered', () => {
    expect(answerAskedTime({ date: '2026-12-09', part: null }, week, free, 3)).toBeNull();
  });
});

describe('the zone suggestions speak', () => {
  const tenant = { id: 't', timezone: 'UTC', default_language: 'en' as const };
  it('is the resources\u2019 zone when they share one, else the tenant\u2019s', () => {
    expect(speakingZone(tenant, [{ timezone: BERLIN }, { timezone: BERLIN }])).toBe(BERLIN);
    expect(speakingZone(tenant, [{ timezone: BERLIN }, { timezone: 'Europe/Lisbon' }])).toBe('UTC');
    expect(speakingZone(tenant, null)).toBe('UTC');
  });
});
