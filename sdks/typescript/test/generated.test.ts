// The generated types must follow openapi.json: a schema change the SDK has not taken up (by running
// `npm run generate` and adapting to it) fails here, and an incompatible one also fails the type check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// @ts-expect-error the script is plain JavaScript without declarations
import { difference } from '../scripts/generate-types.mjs';
// @ts-expect-error the script is plain JavaScript without declarations
import { difference as resourcesDifference } from '../scripts/generate-resources.mjs';

describe('generated types', () => {
  it('src/generated/openapi.ts matches a fresh generation from openapi.json', () => {
    const diff = (difference as () => string | undefined)();
    assert.equal(diff, undefined, `src/generated/openapi.ts is out of date (${diff}): run \`npm run generate\` in sdks/typescript`);
  });

  it('src/generated/resources.ts matches a fresh generation from openapi.json', () => {
    const diff = (resourcesDifference as () => string | undefined)();
    assert.equal(diff, undefined, `src/generated/resources.ts is out of date (${diff}): run \`npm run generate\` in sdks/typescript`);
  });
});
