import { categorizeFrom } from '../../functions/ai/categories';
import { extractEntities, zoneOffsetMinutes } from '../../functions/ai/entities';
import { HANDOFF_RULES, handoffReason } from '../../functions/ai/handoff';
import { classifyLocally } from '../../functions/ai/local/provider';
import { TRAINING_SET } from '../../functions/ai/local/training-data';
import { MODEL_SNAPSHOT } from '../../functions/ai/local/model-data';
import { trainLocalModel } from '../../functions/ai/local/model';
import { groundedReplies } from '../../functions/ai/replies';
import type { Classification, Intent, SentimentLabel } from '../../functions/ai/taxonomy';
import { INTENTS, SENTIMENTS } from '../../functions/ai/taxonomy';
import { readEvalSet, score } from '../../bench/ai-metrics';

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

const normalised = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

describe('local model data', () => {
  it('keeps the evaluation set disjoint from the training set', () => {
    const training = new Set(TRAINING_SET.map(([text]) => normalised(text)));
    const shared = readEvalSet().filter((m) => training.has(normalised(m.text)));
    expect(shared.map((m) => m.text)).toEqual([]);
  });

  it('ships the model trained from the training set (run `npm run train:ai` after editing it)', () => {
    expect(JSON.parse(MODEL_SNAPSHOT)).toEqual(JSON.parse(JSON.stringify(trainLocalModel(TRAINING_SET))));
  });

  it('meets the quality targets on the held-out set', () => {
    const set = readEvalSet();
    expect(set.length).toBeGreaterThanOrEqual(300);
    const predictions = set.map((m) => ({ m, c: classifyLocally(m.text) }));
    const intents = score(
      INTENTS,
      predictions.map(({ m, c }) => ({ actual: m.intent, predicted: c.intent.name })),
    );
    const sentiments = score(
      SENTIMENTS,
      predictions.map(({ m, c }) => ({ actual: m.sentiment, predicted: c.sentiment.label })),
    );
    expect(intents.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(sentiments.macroF1).toBeGreaterThanOrEqual(0.85);
  });
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

  it('tells languages apart and leaves very short unknown text undetermined', () => {
    expect(classifyLocally('Hola, quiero reservar una cita para mañana por la tarde, por favor').language).toBe('es');
    expect(classifyLocally('Can I book a haircut for tomorrow afternoon please?').language).toBe('en');
    expect(classifyLocally('ok').language).toBe('en');
    expect(classifyLocally('zq').language).toBe('und');
  });
});

describe('entities', () => {
  const now = new Date('2026-03-27T10:00:00Z'); // a Friday; Europe/Berlin moves to summer time on Sunday

  it('resolves dates and times in the tenant time zone, across a DST change', () => {
    const [monday] = extractEntities('can we do monday at 3pm?', now, 'Europe/Berlin');
    expect(monday).toMatchObject({ type: 'datetime', value: '2026-03-30T15:00:00+02:00', timezone: 'Europe/Berlin' });
    const [tomorrow] = extractEntities('tomorrow at 9:30 please', now, 'America/New_York');
    expect(tomorrow).toMatchObject({ type: 'datetime', value: '2026-03-28T09:30:00-04:00' });
    expect(extractEntities('is the 14th of April free?', now, 'UTC')[0]).toMatchObject({
      type: 'date',
      value: '2026-04-14',
    });
    expect(zoneOffsetMinutes('Asia/Kolkata', now)).toBe(330);
  });

  it('finds e-mail addresses, international phone numbers and money', () => {
    const found = extractEntities(
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
      { customerName: 'Maria Lopez', nextBooking: booking },
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
        { customerName: null, nextBooking: null },
        5,
      )) {
        expect(s.text).not.toMatch(
          /\d{1,2}:\d{2}|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|[$€£]\d/i,
        );
        expect(s.text.startsWith('Hi,') || !s.text.startsWith('Hi ')).toBe(true);
      }
    }
  });

  it('returns at most `count`, best first', () => {
    const out = groundedReplies(
      [
        { name: 'cancel_booking', confidence: 0.7 },
        { name: 'reschedule_booking', confidence: 0.3 },
      ],
      { customerName: 'Ann', nextBooking: booking },
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
