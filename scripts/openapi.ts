/**
 * npm run openapi: writes openapi.json (the API contract, generated from the route table and the zod
 * schemas). With --check it writes nothing and exits 1 when the committed file is not what the code
 * generates (the unit test runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { generate } from '../contract/openapi';

const FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

const { document } = await generate();
if (process.argv.includes('--check')) {
  let committed: unknown;
  try {
    committed = JSON.parse(readFileSync(FILE, 'utf8'));
  } catch {
    committed = undefined;
  }
  if (!isDeepStrictEqual(committed, document)) {
    console.error('openapi.json is out of date: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json is current.');
} else {
  writeFileSync(FILE, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote openapi.json (${Object.keys(document.paths as object).length} paths)`);
}
