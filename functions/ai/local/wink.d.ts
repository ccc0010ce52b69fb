// Minimal types for the wink NLP packages (they ship none).
declare module 'wink-tokenizer' {
  export interface Token {
    value: string;
    tag: string;
  }
  export default function tokenizer(): { tokenize(text: string): Token[] };
}
declare module 'wink-porter2-stemmer' {
  export default function stem(word: string): string;
}
declare module 'wink-naive-bayes-text-classifier' {
  export interface NaiveBayes {
    defineConfig(config: { considerOnlyPresence?: boolean; smoothingFactor?: number }): boolean;
    learn(tokens: string[], label: string): boolean;
    consolidate(): boolean;
    computeOdds(tokens: string[]): [string, number][];
    predict(tokens: string[]): string;
    exportJSON(): string;
    importJSON(json: string): boolean;
  }
  export default function naiveBayes(): NaiveBayes;
}
