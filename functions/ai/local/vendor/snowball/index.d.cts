interface Stemmer {
  stemWord(word: string): string;
}
/** The Spanish stemmer's dictionary of irregular forms (@nlpjs/lang-es's dictionary-es.json). */
export interface StemmerDictionary {
  before: Record<string, string>;
  after: Record<string, string>;
}
export type SnowballLanguage = 'de' | 'es' | 'fr' | 'pt';
/** One language's tables in ./tables.json: Among lists (`a_*`) and character groupings (`g_*`). */
export type SnowballTables = Record<string, [string, number, number][] | number[]>;
/** `dictionary`: Spanish only. */
export declare function snowballStemmer(
  language: SnowballLanguage,
  tables: SnowballTables,
  dictionary?: StemmerDictionary,
): Stemmer;
