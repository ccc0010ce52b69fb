/**
 * Lexicon sentiment. English: AFINN-165 with its bigrams, emoji and emoticons (wink-sentiment's lists,
 * copied into the English model file by `npm run train:ai`, so they are data read on first use rather
 * than code in every bundle), scored the way wink-sentiment scores them. Other languages: the lexicon
 * of functions/ai/data/rules/<lang>.json, matched by stem so that every inflection counts. Both refined
 * the way VADER does it: intensifiers and dampeners scale the next sentiment word, capitals and
 * exclamation marks add emphasis, and the clause after "but" outweighs the one before it.
 */
import type { Token } from 'wink-tokenizer';
import { expand, type TextRules } from './text';

const INTENSIFIERS = new Set([
  'very',
  'really',
  'so',
  'sooo',
  'soo',
  'extremely',
  'super',
  'totally',
  'absolutely',
  'incredibly',
  'truly',
  'completely',
  'utterly',
  'seriously',
  'terribly',
  'awfully',
  'highly',
  'most',
  'too',
  'such',
  'beyond',
  'way',
  'damn',
  'bloody',
]);
const DAMPENERS = new Set([
  'slightly',
  'somewhat',
  'kinda',
  'kind',
  'sort',
  'sorta',
  'little',
  'bit',
  'fairly',
  'quite',
  'barely',
  'almost',
]);
const CONTRAST = new Set(['but', 'however', 'although', 'though', 'yet']);

/** Words customers use about service problems that AFINN leaves neutral. A Map: message words are keys. */
const SERVICE_WORDS = new Map<string, number>(
  Object.entries({
    unacceptable: -3,
    ridiculous: -3,
    rude: -3,
    overcharged: -3,
    scam: -3,
    useless: -2,
    waited: -1,
    waiting: -1,
    late: -1,
    still: -0.5,
    again: -0.5,
    refund: -1,
    dirty: -2,
    cold: -1,
    rushed: -2,
    ignored: -2,
    worst: -3,
    disgusting: -3,
    lovely: 3,
    amazing: 4,
    perfect: 3,
    fab: 3,
    brilliant: 4,
    legend: 3,
    delighted: 3,
    thrilled: 3,
    stoked: 3,
    annoying: -2,
    annoyed: -2,
    fuming: -3,
    livid: -3,
    gutted: -2,
    disappointed: -2,
    unprofessional: -3,
    broken: -2,
    charged: -1,
    twice: -1,
    nobody: -1,
  }),
);

/** VADER's normalisation constant: maps an unbounded sum into -1…1. */
const ALPHA = 15;

/** English word lists as data: AFINN words, emoji and emoticons, and AFINN's bigrams ("a b"). Maps: message words are keys. */
export interface EnglishLexicon {
  words: ReadonlyMap<string, number>;
  bigrams: ReadonlyMap<string, number>;
}

/** wink-sentiment's negators: one of them up to two words back flips a word's score. */
const NEGATIONS = new Set([
  'never',
  'none',
  'no',
  'not',
  'non',
  'arent',
  'cant',
  'dont',
  'wont',
  'isnt',
  'wouldnt',
  'shouldnt',
  "n't",
]);

/** AFINN's score of each token, as wink-sentiment gives it: bigrams first, negation two words back. */
function afinnScores(tokens: readonly Token[], lexicon: EnglishLexicon): number[] {
  const scores = tokens.map(() => 0);
  const lower = tokens.map((t) => t.value.toLowerCase());
  for (let k = 0; k < tokens.length; k++) {
    const { tag, value } = tokens[k] ?? { tag: '', value: '' };
    if (tag === 'emoji' || tag === 'emoticon') scores[k] = lexicon.words.get(value) ?? 0;
    else if (tag === 'hashtag') scores[k] = lexicon.words.get(value.slice(1).toLowerCase()) ?? 0;
    else if (tag === 'word') {
      const pair = k + 1 < tokens.length ? lexicon.bigrams.get(`${lower[k]} ${lower[k + 1]}`) : undefined;
      let score = pair ?? lexicon.words.get(lower[k] ?? '') ?? 0;
      if (NEGATIONS.has(lower[k - 1] ?? '') || NEGATIONS.has(lower[k - 2] ?? '')) score = -score;
      scores[k] = score;
      if (pair !== undefined) k += 1;
    }
  }
  return scores;
}

export function lexiconScore(tokens: readonly Token[], lexicon: EnglishLexicon): number {
  const afinn = afinnScores(tokens, lexicon);
  let total = 0;
  let exclamations = 0;
  const contrastAt = tokens.findIndex((t) => t.tag === 'word' && CONTRAST.has(t.value.toLowerCase()));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.value === '!') exclamations += 1;
    const lower = token.value.toLowerCase();
    let score = afinn[i] ?? 0;
    const serviceScore = SERVICE_WORDS.get(lower);
    if (!score && token.tag === 'word' && serviceScore !== undefined) {
      score = serviceScore;
      const before = [tokens[i - 1]?.value.toLowerCase(), tokens[i - 2]?.value.toLowerCase()];
      if (before.some((w) => w === 'not' || w === "n't" || w === 'no' || w === 'never')) score = -score * 0.75;
    }
    if (!score) continue;
    const previous = tokens[i - 1]?.value.toLowerCase() ?? '';
    if (INTENSIFIERS.has(previous)) score *= 1.5;
    else if (DAMPENERS.has(previous)) score *= 0.5;
    if (token.value.length > 1 && token.value === token.value.toUpperCase() && /[A-Z]/.test(token.value)) score *= 1.3;
    if (contrastAt >= 0) score *= i < contrastAt ? 0.5 : 1.5;
    total += score;
  }
  if (total !== 0) total += Math.sign(total) * Math.min(exclamations, 3) * 0.3;
  return total / Math.sqrt(total * total + ALPHA);
}

/** A language's sentiment lexicon, keyed by stem (and emoji), with its modifiers, folded. */
export interface SentimentRules {
  lexicon: ReadonlyMap<string, number>;
  intensifiers: ReadonlySet<string>;
  dampeners: ReadonlySet<string>;
  contrast: ReadonlySet<string>;
}

/** The same VADER-style scoring as `lexiconScore`, over a language's own lexicon. */
export function rulesLexiconScore(tokens: readonly Token[], text: TextRules, rules: SentimentRules): number {
  const words: { value: string; upper: boolean; score: number }[] = [];
  let exclamations = 0;
  for (const token of tokens) {
    if (token.value === '!') exclamations += 1;
    if (token.tag === 'emoji' || token.tag === 'emoticon') {
      // Skin tones and the emoji presentation selector do not change the feeling: 👍🏼 is 👍.
      const base = token.value.replace(/\p{Emoji_Modifier}|\uFE0F/gu, '');
      words.push({ value: base, upper: false, score: rules.lexicon.get(base) ?? 0 });
    } else if (token.tag === 'word') {
      const upper = token.value.length > 1 && token.value === token.value.toUpperCase() && /\p{Lu}/u.test(token.value);
      for (const word of expand(token.value, text))
        words.push({ value: word, upper, score: rules.lexicon.get(text.stem(word)) ?? rules.lexicon.get(word) ?? 0 });
    } else if (token.tag === 'punctuation') words.push({ value: token.value, upper: false, score: 0 });
  }
  const contrastAt = words.findIndex((w) => rules.contrast.has(w.value));
  let total = 0;
  words.forEach((w, i) => {
    let score = w.score;
    if (!score) return;
    // A negator up to three words back, within the clause, flips and softens the word ("no me gustó").
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
      const before = words[j]?.value ?? '';
      if (text.clauseBreaks.has(before) || /^[.,;!?]$/.test(before)) break;
      if (text.negators.has(before)) {
        score = -score * 0.75;
        break;
      }
    }
    const previous = words[i - 1]?.value ?? '';
    if (rules.intensifiers.has(previous)) score *= 1.5;
    else if (rules.dampeners.has(previous)) score *= 0.5;
    if (w.upper) score *= 1.3;
    if (contrastAt >= 0) score *= i < contrastAt ? 0.5 : 1.5;
    total += score;
  });
  if (total !== 0) total += Math.sign(total) * Math.min(exclamations, 3) * 0.3;
  return total / Math.sqrt(total * total + ALPHA);
}
