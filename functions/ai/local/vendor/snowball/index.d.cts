interface Stemmer {
  stemWord(word: string): string;
}
/** The Spanish stemmer's dictionary of irregular forms (@nlpjs/lang-es's dictionary-es.json). */
export interface StemmerDictionary {
  before: Record<string, string>;
  after: Record<string, string>;
}
export declare const StemmerDe: new () => Stemmer;
export declare const StemmerEs: new (dictionary: StemmerDictionary) => Stemmer;
export declare const StemmerFr: new () => Stemmer;
export declare const StemmerPt: new () => Stemmer;
