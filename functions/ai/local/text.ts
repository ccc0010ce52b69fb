/**
 * Text to features for the local classifiers, per language: wink's tokenizer, accents folded, texting
 * slang and elisions spelled out, typos corrected against the training vocabulary, the language's
 * Snowball stemmer, and negation scopes marked.
 */
import type { Token } from 'wink-tokenizer';
import { readModelFile } from './model-files';
import winkTokenizer from './vendor/wink-tokenizer.cjs';

/**
 * The tokenizer's data, copied beside the models by `npm run train:ai` and read when it is first used:
 * wink's table of English contractions ("can't" → "ca", "n't") and its emoji pattern (emoji-regex's).
 */
export const TOKENIZER_DATA = 'tokenizer';
export interface TokenizerData {
  contractions: winkTokenizer.Contractions;
  emoji: { source: string; flags: string };
}

let tokenizer: ReturnType<typeof winkTokenizer> | undefined;
function winkInstance() {
  if (!tokenizer) {
    const { contractions, emoji } = readModelFile<TokenizerData>(TOKENIZER_DATA);
    // A null-prototype object, as wink builds it, so that a word such as "constructor" is no contraction.
    const table = Object.assign(Object.create(null) as winkTokenizer.Contractions, contractions);
    tokenizer = winkTokenizer(table, new RegExp(emoji.source, emoji.flags));
  }
  return tokenizer;
}

/**
 * How one language's words become features: its texting shorthand spelled out, the words that negate
 * what follows (up to the end of the clause), French-style elisions split off, and its stemmer. The
 * word lists are data (functions/ai/data/rules/<lang>.json), carried in the trained model file.
 * Maps and Sets, not objects: message words are looked up in them, and "constructor" must not find
 * Object.
 */
export interface TextRules {
  shorthand: ReadonlyMap<string, string>;
  negators: ReadonlySet<string>;
  clauseBreaks: ReadonlySet<string>;
  /** "j'" → "je", "l'" → "le": the elided word before an apostrophe, spelled out. */
  elisions: ReadonlyMap<string, string>;
  negationReach: number;
  stem: (word: string) => string;
}

/**
 * wink's tokenizer tries its e-mail pattern from every position of a
 * run of non-space characters, so its work grows with the square of the longest run: a 4,096-character
 * run took about 100 ms. A space after every MAX_RUN characters of a run bounds that work to a constant
 * per character. Real words, e-mail addresses and most links are shorter, so ordinary text is unchanged.
 */
export const MAX_RUN = 128;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN}}(?=\\S)`, 'gu');
export const boundRuns = (text: string): string => text.replace(LONG_RUN, '$& ');

export const tokenize = (text: string): Token[] => winkInstance().tokenize(boundRuns(text.replace(/[’‘]/g, "'")));

/**
 * Lower case without accents ("Cancelación" → "cancelacion", "größer" → "grosser"): customers often
 * leave accents out, so the model sees every word the way it is most often typed.
 */
export const fold = (word: string): string =>
  word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');

/** A word token, folded, with elisions and shorthand spelled out (one token can become several words). */
export function expand(word: string, rules: TextRules): string[] {
  // Stretched words ("sooo", "thank youuu") keep two letters; the speller takes it from there.
  const folded = fold(word).replace(/(\p{L})\1{2,}/gu, '$1$1');
  const elided = rules.elisions.size > 0 ? /^(\p{L}{1,2})'(\p{L}.*)$/u.exec(folded) : null;
  const article = elided?.[1] !== undefined ? rules.elisions.get(elided[1]) : undefined;
  if (elided?.[2] !== undefined && article) return [article, ...expand(elided[2], rules)];
  const { shorthand } = rules;
  return (shorthand.get(folded) ?? shorthand.get(folded.replace(/'/g, '')) ?? folded).split(' ');
}

/** Deletion-neighbourhood index (SymSpell, distance 1): finds a known word one edit away in microseconds. */
export class Speller {
  private readonly counts = new Map<string, number>();
  private readonly byDeletion = new Map<string, string[]>();
  /** The longest known word: nothing longer than this plus one is a single edit away from a known word. */
  private longest = 0;
  /** Index look-ups made by `correct`, so tests can check that its work is bounded. */
  lookups = 0;

  add(word: string): void {
    if (!/^[a-z]+$/.test(word)) return;
    const seen = this.counts.get(word);
    this.counts.set(word, (seen ?? 0) + 1);
    this.longest = Math.max(this.longest, word.length);
    if (seen !== undefined || word.length < 4) return;
    for (const variant of deletions(word)) {
      const list = this.byDeletion.get(variant);
      if (list) list.push(word);
      else this.byDeletion.set(variant, [word]);
    }
  }

  static from(entries: readonly [string, number][]): Speller {
    const speller = new Speller();
    for (const [word, count] of entries) {
      speller.add(word);
      speller.counts.set(word, count);
    }
    return speller;
  }

  /** Every known word with its count, sorted, for a stable snapshot. */
  entries(): [string, number][] {
    return [...this.counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  knows(word: string): boolean {
    return this.counts.has(word);
  }

  /**
   * The most frequent known word within one insertion, deletion, substitution or transposition. A word
   * longer than the longest known word plus one has no such neighbour; checking its deletions anyway
   * would cost the square of its length.
   */
  correct(word: string): string {
    if (word.length < 4 || word.length > this.longest + 1 || !/^[a-z]+$/.test(word)) return word;
    this.lookups += 1;
    if (this.counts.has(word)) return word;
    let best = word;
    let bestCount = 0;
    const consider = (candidate: string) => {
      const count = this.counts.get(candidate) ?? 0;
      if (count > bestCount) [best, bestCount] = [candidate, count];
    };
    for (const variant of deletions(word)) {
      this.lookups += 2;
      if (this.counts.has(variant)) consider(variant);
      for (const candidate of this.byDeletion.get(variant) ?? []) consider(candidate);
    }
    this.lookups += 1;
    for (const candidate of this.byDeletion.get(word) ?? []) consider(candidate);
    return best;
  }
}

function* deletions(word: string): Generator<string> {
  for (let i = 0; i < word.length; i++) yield word.slice(0, i) + word.slice(i + 1);
}

/** Stemming is the hot path: a message reuses the same few hundred stems, so each stemmer is cached. */
export function cachedStemmer(stem: (word: string) => string): (word: string) => string {
  const stems = new Map<string, string>();
  return (word) => {
    let s = stems.get(word);
    if (s === undefined) {
      s = stem(word);
      if (stems.size < 50_000) stems.set(word, s);
    }
    return s;
  };
}

/**
 * Classifier features: stems (prefixed `not_` inside a negation scope), adjacent stem pairs, and markers
 * for questions, numbers, times, money, emoji and very short messages.
 */
export function features(tokens: Token[], speller: Speller | undefined, rules: TextRules): string[] {
  const out: string[] = [];
  let negatedFor = 0;
  let previous: string | undefined;
  let wordCount = 0;
  for (const token of tokens) {
    if (token.tag === 'punctuation') {
      negatedFor = 0;
      previous = undefined;
      if (token.value === '?') out.push('__question');
      continue;
    }
    if (token.tag !== 'word') {
      out.push(`__${token.tag}`);
      previous = undefined;
      continue;
    }
    for (const part of expand(token.value, rules)) {
      wordCount += 1;
      if (rules.clauseBreaks.has(part)) negatedFor = 0;
      const word = speller ? speller.correct(part) : part;
      const s = rules.stem(word);
      if (rules.negators.has(word)) {
        negatedFor = rules.negationReach;
        out.push(s);
      } else if (negatedFor > 0) {
        negatedFor -= 1;
        out.push(`not_${s}`);
      } else out.push(s);
      if (previous) out.push(`${previous}_${s}`);
      previous = s;
    }
  }
  if (wordCount <= 2) out.push('__short');
  return out;
}
