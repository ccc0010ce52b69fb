/** The Spanish Snowball stemmer; `dictionary`: its irregular forms (@nlpjs/lang-es's dictionary-es.json). */
declare class StemmerEs {
  constructor(dictionary: { before: Record<string, string>; after: Record<string, string> });
  stemWord(word: string): string;
}
export = StemmerEs;
