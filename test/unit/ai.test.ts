import { categorizeFrom } from '../../functions/ai/categories';
import { dateEntities, extractEntities } from '../../functions/ai/entities';
import { zoneOffsetMinutes } from '../../functions/platform/time-zones';
import { HANDOFF_RULES, handoffReason, isClearlyNegative } from '../../functions/ai/handoff';
import { identifyLanguage } from '../../functions/ai/language';
import { classifyLocally } from '../../functions/ai/local/provider';
import { groundedReplies } from '../../functions/ai/replies';
import type { Classification, Intent, Language, SentimentLabel } from '../../functions/ai/taxonomy';
import { INTENTS, LANGUAGES } from '../../functions/ai/taxonomy';

const verdict = (
  intent: Intent,
  sentiment: SentimentLabel,
  confidence = 0.9,
  score = sentiment === 'negative' ? -0.8 : 0,
): Classification => ({
  intent: { name: intent, confidence },
  intents: [{ name: intent, confidence }],
  sentiment: { label: sentiment, score, confidence },
  language: 'en',
});

describe('local classifier', () => {
  it.each([
    ["I'm not happy with my haircut at all", 'negative'],
    ['not bad at all, really enjoyed it', 'positive'],
    ['the massage was lovely but the wait was absolutely awful', 'negative'],
    ['I was NOT impressed', 'negative'],
    ['thank youuu so much!!!', 'positive'],
    ['Can I book a cut for Friday?', 'neutral'],
  ])('reads the sentiment of %j as %s', (text, label) => {
    expect(classifyLocally(text).sentiment.label).toBe(label);
  });

  it.each([
    ['cna i resheduel my apointment to tmrw?', 'reschedule_booking'],
    ['cancle my booking pls', 'cancel_booking'],
    ["I don't want to cancel, can we just move it to next week?", 'reschedule_booking'],
    ['hw much for a full set', 'pricing'],
    ['human pls', 'request_human'],
    ['whats ur adress', 'location'],
    ['thx!', 'thanks'],
  ])('reads the intent of %j as %s', (text, intent) => {
    expect(classifyLocally(text).intent.name).toBe(intent);
  });

  it('keeps scores, confidences and the top three consistent', () => {
    for (const text of ['hi', '?', 'I was charged twice and nobody answers the phone!!', 'a'.repeat(4000)]) {
      const c = classifyLocally(text);
      expect(c.intents).toHaveLength(3);
      expect(c.intents[0]).toEqual(c.intent);
      expect(c.sentiment.score).toBeGreaterThanOrEqual(-1);
      expect(c.sentiment.score).toBeLessThanOrEqual(1);
      expect(c.sentiment.confidence).toBeGreaterThan(0);
      if (c.sentiment.label === 'negative') expect(c.sentiment.score).toBeLessThan(0);
      if (c.sentiment.label === 'positive') expect(c.sentiment.score).toBeGreaterThan(0);
    }
  });

  it.each([
    ['Hola, quiero reservar una cita para mañana por la tarde, por favor', 'es'],
    ['Can I book a haircut for tomorrow afternoon please?', 'en'],
    ['tem horario amanha de tarde?', 'pt'],
    ['vcs abrem no feriado?', 'pt'],
    ['me cobraron dos veces!!', 'es'],
    ['dispo samedi matin ?', 'fr'],
    ['jpeux décaler mon rdv ?', 'fr'],
    ['kann ich morgen vorbeikommen', 'de'],
    ['wo kann man parken', 'de'],
  ])('identifies the language of %j as %s, whatever the default', (text, language) => {
    for (const fallback of LANGUAGES) expect(identifyLanguage(text, fallback)).toBe(language);
  });

  it.each(['ok', '👍', '?', 'zq', '10h', '🙏🙏'])('gives %j, too short to tell, the tenant default', (text) => {
    for (const fallback of LANGUAGES) expect(classifyLocally(text, fallback).language).toBe(fallback);
  });

  it.each([
    ['Hola, quiero reservar una cita para el viernes', 'book_appointment'],
    ['Hallo, ich möchte meinen Termin verschieben', 'reschedule_booking'],
    ['queria desmarcar o horário de amanhã', 'cancel_booking'],
    ['vous êtes ouverts le lundi matin ?', 'opening_hours'],
    ['me pasás la dirección del local?', 'location'],
  ])('reads the intent of %j as %s in its own language', (text, intent) => {
    expect(classifyLocally(text).intent.name).toBe(intent);
  });
});

describe('entities', () => {
  const now = new Date('2026-03-27T10:00:00Z'); // a Friday; Europe/Berlin moves to summer time on Sunday

  it('resolves dates and times in the tenant time zone, across a DST change', async () => {
    const [monday] = await dateEntities('can we do monday at 3pm?', now, 'Europe/Berlin');
    expect(monday).toMatchObject({ type: 'datetime', value: '2026-03-30T15:00:00+02:00', timezone: 'Europe/Berlin' });
    const [tomorrow] = await dateEntities('tomorrow at 9:30 please', now, 'America/New_York');
    expect(tomorrow).toMatchObject({ type: 'datetime', value: '2026-03-28T09:30:00-04:00' });
    expect((await dateEntities('is the 14th of April free?', now, 'UTC'))[0]).toMatchObject({
      type: 'date',
      value: '2026-04-14',
    });
    expect(zoneOffsetMinutes('Asia/Kolkata', now)).toBe(330);
  });

  it('finds e-mail addresses, international phone numbers and money', async () => {
    const found = await extractEntities(
      'mail jo.b@example.co.uk or call +44 7911 123456; I paid £45.50 and then 20 euros',
      now,
      'UTC',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        { type: 'email', text: 'jo.b@example.co.uk', value: 'jo.b@example.co.uk' },
        { type: 'phone', text: '+44 7911 123456', value: '+447911123456' },
        { type: 'money', text: '£45.50', value: { amount: 45.5, currency: 'GBP' } },
        { type: 'money', text: '20 euros', value: { amount: 20, currency: 'EUR' } },
      ]),
    );
  });

  it('finds dates beside the other entities, in the language asked for', async () => {
    const found = await extractEntities('see you tomorrow at 9:30, mail jo@example.com', now, 'America/New_York');
    expect(found).toEqual([
      { type: 'datetime', text: 'tomorrow at 9:30', value: '2026-03-28T09:30:00-04:00', timezone: 'America/New_York' },
      { type: 'email', text: 'jo@example.com', value: 'jo@example.com' },
    ]);
    // Two first reads of a language at once both get its parser, with the Portuguese hours ("às 14h") it adds.
    const [a, b] = await Promise.all(
      ['amanhã às 14h', 'amanhã às 10h30'].map((text) => dateEntities(text, now, 'Europe/Lisbon', 'pt')),
    );
    expect([a![0]!.value, b![0]!.value]).toEqual(['2026-03-28T14:00:00+00:00', '2026-03-28T10:30:00+00:00']);
  });

  it('finds phone numbers in international form however they are grouped, and nothing else', async () => {
    const phones = async (text: string) =>
      (await extractEntities(text, now, 'UTC')).flatMap((e) => (e.type === 'phone' ? [[e.text, e.value]] : []));
    expect(await phones('(+34) 612-34-56-78 or +49 (0)30 1234567, and +33 6 12 34 56 78.')).toEqual([
      ['(+34) 612-34-56-78', '+34612345678'],
      ['+49 (0)30 1234567', '+49301234567'],
      ['+33 6 12 34 56 78', '+33612345678'],
    ]);
    // A number followed by the next sentence's digits ends where the number does.
    expect(await phones('call +44 7911 123456. 2 of us are coming')).toEqual([['+44 7911 123456', '+447911123456']]);
    // A national number (no country to read it in), digits run on into a word, too few digits, too many.
    expect(await phones('ring 07911 123456, +447911123456abc, +44 7911 12, +44 7911 123456 789 1')).toEqual([]);
  });
});

describe('handoff rules', () => {
  it('hands off on a request for a human or a complaint the classifier is sure of', () => {
    expect(handoffReason(verdict('request_human', 'neutral'), [])).toBe('request_human');
    expect(handoffReason(verdict('complaint', 'negative'), [])).toBe('complaint');
    expect(handoffReason(verdict('complaint', 'negative', HANDOFF_RULES.intentConfidence - 0.01, -0.1), [])).toBeNull();
  });

  it('hands off after two clearly negative customer messages in a row, not one', () => {
    const negative = verdict('payment_issue', 'negative');
    expect(handoffReason(negative, [])).toBeNull();
    expect(handoffReason(negative, [negative])).toBe('negative_sentiment');
    expect(handoffReason(negative, [verdict('pricing', 'neutral'), negative])).toBeNull();
    expect(handoffReason(negative, [null])).toBeNull();
    const unsure = verdict('payment_issue', 'negative', HANDOFF_RULES.negativeConfidence - 0.05);
    expect(handoffReason(negative, [unsure])).toBeNull();
  });
});

describe('grounded replies', () => {
  const booking = {
    id: 'bkg_1',
    service: 'Haircut',
    start_at: '2026-11-24T14:00:00Z',
    timezone: 'Europe/Berlin',
    status: 'confirmed',
  };

  it('names the customer and their next booking when asked to reschedule', () => {
    const [first] = groundedReplies(
      [{ name: 'reschedule_booking', confidence: 0.9 }],
      { customerName: 'Maria Lopez', nextBooking: booking, openingHours: null, freeTimes: null },
      3,
    );
    expect(first?.text).toContain('Maria');
    expect(first?.text).toContain('Haircut on Tuesday 24 November at 15:00');
    expect(first?.intent).toBe('reschedule_booking');
  });

  it('never invents a booking, a time or a name it was not given', () => {
    for (const intent of INTENTS) {
      for (const s of groundedReplies(
        [{ name: intent, confidence: 0.9 }],
        { customerName: null, nextBooking: null, openingHours: null, freeTimes: null },
        5,
      )) {
        expect(s.text).not.toMatch(
          /\d{1,2}:\d{2}|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|[$€£]\d/i,
        );
        expect(s.text.startsWith('Hi,') || !s.text.startsWith('Hi ')).toBe(true);
      }
    }
  });

  it('answers when the business is open with its hours for the coming days, in the customer\u2019s language', () => {
    const nine = [{ start: '09:00', end: '17:00' }];
    const openingHours = {
      timezone: 'Europe/Berlin',
      // Tuesday 24 November to Monday 30 November 2026.
      days: [
        { date: '2026-11-24', hours: nine },
        { date: '2026-11-25', hours: nine },
        { date: '2026-11-26', hours: [{ start: '09:00', end: '20:00' }] },
        { date: '2026-11-27', hours: nine },
        { date: '2026-11-28', hours: [{ start: '10:00', end: '14:00' }] },
        { date: '2026-11-29', hours: [] },
        { date: '2026-11-30', hours: nine },
      ],
    };
    const grounding = { customerName: 'Maria Lopez', nextBooking: null, openingHours, freeTimes: null };
    const [en] = groundedReplies([{ name: 'opening_hours', confidence: 0.9 }], grounding, 3);
    expect(en?.text).toBe(
      'Hi Maria, our opening hours for the coming days: Tuesday\u2013Wednesday 09:00\u201317:00; ' +
        'Thursday 09:00\u201320:00; Friday 09:00\u201317:00; Saturday 10:00\u201314:00; Sunday closed; Monday 09:00\u201317:00.',
    );
    const [de] = groundedReplies([{ name: 'opening_hours', confidence: 0.9 }], grounding, 3, 'de');
    expect(de?.text).toContain('Öffnungszeiten für die nächsten Tage: Dienstag bis Mittwoch 09:00\u201317:00;');
    expect(de?.text).toContain('Sonntag geschlossen');
    const everyDay = { ...openingHours, days: openingHours.days.map((d) => ({ ...d, hours: nine })) };
    const [daily] = groundedReplies(
      [{ name: 'opening_hours', confidence: 0.9 }],
      { ...grounding, openingHours: everyDay },
      1,
      'es',
    );
    expect(daily?.text).toBe('Hola Maria, nuestro horario para los próximos días: todos los días 09:00\u201317:00.');
    const [es] = groundedReplies([{ name: 'opening_hours', confidence: 0.9 }], grounding, 1, 'es');
    expect(es?.text).toContain('de martes a miércoles 09:00\u201317:00; jueves 09:00\u201320:00;');
    const [fr] = groundedReplies([{ name: 'opening_hours', confidence: 0.9 }], grounding, 1, 'fr');
    expect(fr?.text).toContain('à venir : du mardi au mercredi 09:00\u201317:00 ; jeudi 09:00\u201320:00 ;');
    const shut = { ...openingHours, days: openingHours.days.map((d) => ({ ...d, hours: [] })) };
    const [closed] = groundedReplies(
      [{ name: 'opening_hours', confidence: 0.9 }],
      { ...grounding, openingHours: shut },
      1,
    );
    expect(closed?.text).toBe('Hi Maria, our opening hours for the coming days: closed every day.');
    // Without opening hours it asks which day instead of naming any.
    const [asked] = groundedReplies(
      [{ name: 'opening_hours', confidence: 0.9 }],
      { ...grounding, openingHours: null, freeTimes: null },
      3,
    );
    expect(asked?.text).toMatch(/Which day are you thinking of coming in\?/);
  });

  it('offers the next free times to book, by date, in the customer\u2019s language, and asks without them', () => {
    const freeTimes = {
      timezone: 'Europe/Berlin',
      days: [
        {
          date: '2026-11-25',
          hours: [
            { start: '10:00', end: '12:00' },
            { start: '14:00', end: '17:00' },
          ],
        },
        { date: '2026-11-26', hours: [{ start: '09:00', end: '13:00' }] },
      ],
    };
    const grounding = { customerName: 'Maria Lopez', nextBooking: null, openingHours: null, freeTimes };
    const book = [{ name: 'book_appointment' as const, confidence: 0.9 }];
    const [en, second] = groundedReplies(book, grounding, 2);
    expect(en?.text).toBe(
      "Hi Maria, I'd be happy to book you in. We have free times: Wednesday 25 November (10:00\u201312:00, " +
        '14:00\u201317:00); Thursday 26 November (09:00\u201313:00). Which service would you like, and which time suits you?',
    );
    expect(second?.text).toContain('These are our next free times: Wednesday 25 November (10:00');
    const [de] = groundedReplies(book, grounding, 1, 'de');
    expect(de?.text).toContain(
      'freie Zeiten: Mittwoch, 25. November (10:00\u201312:00, 14:00\u201317:00); Donnerstag, 26. November',
    );
    const [es] = groundedReplies(book, grounding, 1, 'es');
    expect(es?.text).toContain('huecos libres: miércoles, 25 de noviembre (10:00\u201312:00');
    const [fr] = groundedReplies(book, grounding, 1, 'fr');
    expect(fr?.text).toContain(
      'créneaux libres : mercredi 25 novembre (10:00\u201312:00, 14:00\u201317:00) ; jeudi 26 novembre',
    );
    const [pt] = groundedReplies(book, grounding, 1, 'pt');
    expect(pt?.text).toContain('horários livres: quarta-feira, 25 de novembro (10:00\u201312:00');
    // No free day known (none this week, or not known at all): it asks which day suits.
    for (const none of [{ ...freeTimes, days: [] }, null]) {
      const [asked] = groundedReplies(book, { ...grounding, freeTimes: none }, 1);
      expect(asked?.text).toBe(
        "Hi Maria, I'd be happy to book you in. Which service would you like, and which day and time suit you?",
      );
    }
  });

  it('returns at most `count`, best first', () => {
    const out = groundedReplies(
      [
        { name: 'cancel_booking', confidence: 0.7 },
        { name: 'reschedule_booking', confidence: 0.3 },
      ],
      { customerName: 'Ann', nextBooking: booking, openingHours: null, freeTimes: null },
      2,
    );
    expect(out).toHaveLength(2);
    expect(out[0]?.confidence).toBeGreaterThanOrEqual(out[1]?.confidence ?? 0);
  });
});

describe('categories', () => {
  it('follows the topic of the conversation, not its pleasantries', () => {
    const result = categorizeFrom([
      verdict('greeting', 'neutral'),
      verdict('payment_issue', 'negative'),
      verdict('thanks', 'positive'),
    ]);
    expect(result.category.name).toBe('billing');
    expect(result.suggested_tags).toEqual(['payment-issue', 'unhappy']);
    expect(result.candidates.map((c) => c.name).sort()).toEqual(['billing', 'booking', 'general', 'sales', 'support']);
  });

  it('is general for small talk only, and for nothing at all', () => {
    expect(categorizeFrom([verdict('greeting', 'positive')]).category.name).toBe('general');
    expect(categorizeFrom([]).category).toEqual({ name: 'general', confidence: 1 });
  });
});

describe('in every language', () => {
  const now = new Date('2026-03-27T10:00:00Z'); // a Friday

  it.each([
    ['es', 'quiero hablar con una persona de verdad, no con un bot'],
    ['pt', 'me passa pra um atendente humano por favor'],
    ['fr', 'passez-moi un vrai conseiller svp'],
    ['de', 'ich will mit einem echten Mitarbeiter sprechen'],
  ])('hands a request for a person to a human (%s)', (language, text) => {
    const c = classifyLocally(text);
    expect(c.language).toBe(language);
    expect(handoffReason(c, [])).toBe('request_human');
  });

  it.each([
    ['es', 'el servicio de ayer fue pésimo, la recepcionista fue una maleducada'],
    ['pt', 'atendimento péssimo, fiquei uma hora esperando e ninguém me avisou'],
    ['fr', 'accueil déplorable, la coiffeuse a été désagréable du début à la fin'],
    ['de', 'der Service gestern war eine Katastrophe, total unfreundlich'],
  ])('hands a complaint to a human (%s)', (language, text) => {
    const c = classifyLocally(text);
    expect(c.language).toBe(language);
    expect(handoffReason(c, [])).toBe('complaint');
  });

  it.each([
    ['es', 'me han cobrado dos veces y nadie me devuelve el dinero, estoy harta 😡'],
    ['pt', 'cobraram duas vezes no cartão e até agora nada de estorno, que absurdo'],
    ['fr', "débitée deux fois et toujours pas remboursée, c'est inadmissible"],
    ['de', 'zweimal abgebucht und immer noch keine Erstattung, echt ärgerlich'],
  ])('hands off after two clearly negative messages in a row (%s)', (_language, text) => {
    const c = classifyLocally(text);
    expect(isClearlyNegative(c)).toBe(true);
    expect(handoffReason({ ...c, intent: { name: 'payment_issue', confidence: 0.9 } }, [c])).toBe('negative_sentiment');
  });

  it.each([
    ['es', 'el viernes a las 5', { type: 'datetime', value: '2026-04-03T17:00:00+02:00' }],
    ['pt', 'amanhã às 14h', { type: 'datetime', value: '2026-03-28T14:00:00+01:00' }],
    ['fr', 'mardi prochain', { type: 'date', value: '2026-03-31' }],
    ['de', 'nächsten Dienstag um 10', { type: 'datetime', value: '2026-03-31T10:00:00+02:00' }],
  ] as const)('reads dates and times in %s, in the tenant time zone', async (language, text, expected) => {
    expect((await dateEntities(text, now, 'Europe/Madrid', language))[0]).toMatchObject({
      ...expected,
      timezone: 'Europe/Madrid',
    });
  });

  const booking = {
    id: 'bkg_1',
    service: 'Corte',
    start_at: '2026-11-24T14:00:00Z',
    timezone: 'Europe/Madrid',
    status: 'confirmed',
  };
  it.each([
    ['es', 'martes, 24 de noviembre a las 15:00', 'Hola Lucía'],
    ['pt', 'terça-feira, 24 de novembro às 15:00', 'Olá Lucía'],
    ['fr', 'mardi 24 novembre à 15:00', 'Bonjour Lucía'],
    ['de', 'Dienstag, 24. November um 15:00 Uhr', 'Hallo Lucía'],
  ] as const)('suggests replies in %s, grounded in the booking', (language, when, hello) => {
    const [first] = groundedReplies(
      [{ name: 'reschedule_booking', confidence: 0.9 }],
      { customerName: 'Lucía Pérez', nextBooking: booking, openingHours: null, freeTimes: null },
      2,
      language,
    );
    expect(first?.text.startsWith(hello)).toBe(true);
    expect(first?.text).toContain(when);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('never invents a booking or a time in %s', (language: Language) => {
    for (const intent of INTENTS)
      for (const s of groundedReplies(
        [{ name: intent, confidence: 0.9 }],
        { customerName: null, nextBooking: null, openingHours: null, freeTimes: null },
        5,
        language,
      ))
        expect(s.text).not.toMatch(/\d{1,2}:\d{2}|[$€£]\d/);
  });
});
