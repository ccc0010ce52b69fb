import type { Token } from 'wink-tokenizer';

declare function tokenizer(contractions: tokenizer.Contractions, emoji: RegExp): { tokenize(text: string): Token[] };
declare namespace tokenizer {
  /** "can't" → its tokens ("ca", "n't"): wink-tokenizer's eng-contractions.js table. */
  type Contractions = Record<string, Token[]>;
}
export = tokenizer;
