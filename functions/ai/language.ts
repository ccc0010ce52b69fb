/** Language identification with franc (trigram profiles of the most spoken languages), offline. */
import { franc } from 'franc-min';

/** ISO 639-3 (franc) to the ISO 639-1 codes APIs usually speak; other languages keep their 639-3 code. */
const ISO_639_1: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  ita: 'it',
  por: 'pt',
  nld: 'nl',
  pol: 'pl',
  tur: 'tr',
  rus: 'ru',
  ukr: 'uk',
  arb: 'ar',
  cmn: 'zh',
  jpn: 'ja',
  kor: 'ko',
  hin: 'hi',
  ben: 'bn',
  ind: 'id',
  vie: 'vi',
  tha: 'th',
  swe: 'sv',
  ron: 'ro',
  ces: 'cs',
  hun: 'hu',
  ell: 'el',
  heb: 'he',
  pes: 'fa',
  zlm: 'ms',
  swh: 'sw',
  tgl: 'tl',
  urd: 'ur',
};

/**
 * Short messages carry too few trigrams for franc: below its minimum they are `und`, unless the
 * caller knows the text reads as English (the classifier recognised its words).
 */
export function detectLanguage(text: string, looksEnglish: boolean): string {
  const code = franc(text, { minLength: 20, only: Object.keys(ISO_639_1) });
  if (code === 'und') return looksEnglish ? 'en' : 'und';
  // franc confuses short English with its neighbours; trust the vocabulary when it recognised the words.
  if (
    looksEnglish &&
    ['nld', 'deu', 'fra', 'ita', 'spa', 'por', 'ron', 'ind', 'zlm', 'tgl', 'swe'].includes(code) &&
    text.length < 60
  )
    return 'en';
  return ISO_639_1[code] ?? code;
}
