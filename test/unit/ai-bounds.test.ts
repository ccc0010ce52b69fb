import { extractEntities } from '../../functions/ai/entities';
import { textRules } from '../../functions/ai/local/languages';
import type { ModelSnapshot } from '../../functions/ai/local/model';
import { readModelFile } from '../../functions/ai/local/model-files';
import { classifyLocally, localModel } from '../../functions/ai/local/provider';
import { LANGUAGES } from '../../functions/ai/taxonomy';
import { MAX_RUN, Speller, boundRuns, expand, features, tokenize } from '../../functions/ai/local/text';

const snapshot = readModelFile<ModelSnapshot>('en');
const { vocabulary } = snapshot;
const rules = textRules('en', snapshot.rules);
const longestKnown = Math.max(...vocabulary.map(([w]) => w.length));

/** Texts of the longest allowed message (4,096 characters) that used to cost the square of their length. */
const PATHOLOGICAL = {
  letters: 'ab'.repeat(2048),
  digits: '1'.repeat(4096),
  exclamations: '!'.repeat(4096),
  dashes: 'a-'.repeat(2048),
  dots: 'x.'.repeat(2048),
  mixed: 'aaaa1111'.repeat(512),
};

describe('local analysis work is linear in the text length', () => {
  it('never looks up more than a bounded number of neighbours per word in the speller', () => {
    const speller = Speller.from(vocabulary);
    // Each word costs at most its deletions (two look-ups each) plus two; only words up to the longest
    // known word plus one are worth checking at all.
    const perWord = 2 * (longestKnown + 1) + 2;
    for (const [name, text] of Object.entries(PATHOLOGICAL)) {
      speller.lookups = 0;
      const words = tokenize(text)
        .filter((t) => t.tag === 'word')
        .flatMap((t) => expand(t.value, rules));
      features(tokenize(text), speller, rules);
      expect({ name, within: speller.lookups <= perWord * words.length }).toEqual({ name, within: true });
    }
    speller.lookups = 0;
    expect(speller.correct(PATHOLOGICAL.letters)).toBe(PATHOLOGICAL.letters);
    expect(speller.lookups).toBe(0);
    // Typo correction itself is unchanged.
    expect(speller.correct('appointmnet')).toBe('appointment');
    expect(speller.correct('refudn')).toBe('refund');
  });

  it('hands the tokenizers no run of non-space characters longer than MAX_RUN', () => {
    for (const [name, text] of Object.entries(PATHOLOGICAL)) {
      const longest = Math.max(
        ...boundRuns(text)
          .split(/\s+/u)
          .map((run) => [...run].length),
      );
      expect({ name, longest: longest <= MAX_RUN }).toEqual({ name, longest: true });
      const tokens = tokenize(text);
      expect(tokens.every((t) => [...t.value].length <= MAX_RUN)).toBe(true);
      // Nothing is dropped: the same characters, only spaced.
      expect(boundRuns(text).replace(/ /g, '')).toBe(text);
    }
  });

  it('leaves ordinary text exactly as it was', () => {
    const text =
      'Hi! Can I move my 3pm booking to tomorrow? Mail jo@example.com or see https://example.com/bookings/123?ref=abc';
    expect(boundRuns(text)).toBe(text);
    const link = `https://example.com/${'a'.repeat(MAX_RUN - 20)}`;
    expect(boundRuns(`see ${link} now`)).toBe(`see ${link} now`);
  });

  it('still finds entities in ordinary text after making the patterns linear', async () => {
    const now = new Date('2026-03-27T10:00:00Z');
    const found = await extractEntities(
      'mail jo.b@example.co.uk, a.b+c@x-y.io; paid $1,200.50 and 20 euros, 7usd',
      now,
      'UTC',
    );
    expect(found.filter((e) => e.type !== 'datetime' && e.type !== 'date')).toEqual([
      { type: 'email', text: 'jo.b@example.co.uk', value: 'jo.b@example.co.uk' },
      { type: 'email', text: 'a.b+c@x-y.io', value: 'a.b+c@x-y.io' },
      { type: 'money', text: '$1,200.50', value: { amount: 1200.5, currency: 'USD' } },
      { type: 'money', text: '20 euros', value: { amount: 20, currency: 'EUR' } },
      { type: 'money', text: '7usd', value: { amount: 7, currency: 'USD' } },
    ]);
  });
});

describe('message words are data, not object keys', () => {
  it.each([
    'constructor',
    'Constructor please',
    'my constructor booking is late',
    '__proto__',
    'toString valueOf hasOwnProperty',
  ])('classifies %j with finite scores', (text) => {
    const c = classifyLocally(text, 'de');
    expect(Number.isFinite(c.sentiment.score)).toBe(true);
    expect(Number.isFinite(c.sentiment.confidence)).toBe(true);
    expect(c.intents.every((i) => Number.isFinite(i.confidence))).toBe(true);
    // Every language's model, with its own lexicon and word lists (Maps, not objects).
    for (const language of LANGUAGES) {
      const verdict = localModel(language)(text);
      expect({ language, finite: Number.isFinite(verdict.lexicon) }).toEqual({ language, finite: true });
      expect(verdict.intent.ranked.every((r) => Number.isFinite(r.p))).toBe(true);
    }
  });
});
