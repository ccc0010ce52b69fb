/**
 * What the analysis route runs on a message, as `npm run bench -- --only loads` loads it in a fresh process
 * to time a cold analysis: the local model's classification, then entity extraction (which imports the
 * message's language's date parser from beside the bundle).
 */
export { classifyLocally } from '../functions/ai/local/provider';
export { extractEntities } from '../functions/ai/entities';
