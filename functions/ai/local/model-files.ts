/**
 * The trained models are data, not code: gzipped JSON files in ./models, written by `npm run train:ai`.
 * Deployed, the bundler copies them next to the handler (`models/` beside `index.mjs`, see
 * catalog/bundling.ts); locally they are read from the repository. Either way they sit at `models/`
 * relative to this module's code, and are read on first use only.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const MODEL_DIR = new URL('./models/', import.meta.url);

/** `name` is a fixed file name (a language code or `language-id`), never input from a request. */
export const modelFileName = (name: string) => `${name}.json.gz`;

/** A model file's JSON text, as `npm run train:ai` wrote it. */
export const readModelText = (name: string): string =>
  gunzipSync(readFileSync(new URL(modelFileName(name), MODEL_DIR))).toString('utf8');

export function readModelFile<T>(name: string): T {
  return JSON.parse(readModelText(name)) as T;
}
