// Jest transform: TypeScript to ES modules with esbuild (types are checked by `npm run typecheck`).
import { transformSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const ownSource = readFileSync(new URL(import.meta.url));

export default {
  canInstrument: false,
  getCacheKey(source, path) {
    return createHash('sha256').update(ownSource).update('\0').update(path).update('\0').update(source).digest('hex');
  },
  process(source, path) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: path,
    });
    return { code, map };
  },
};
