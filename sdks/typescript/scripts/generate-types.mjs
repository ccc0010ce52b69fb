// Generates src/generated/openapi.ts from the repository's openapi.json with openapi-typescript.
//
//   node scripts/generate-types.mjs           write it
//   node scripts/generate-types.mjs --check   exit 1 if the committed file differs from a fresh generation
//
// The check compares TypeScript tokens (identifiers, literals by value, comment text), not bytes, so a
// formatter that rewraps or re-quotes the committed file does not count as a difference, but any change
// to a type does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const spec = join(sdkRoot, '../../openapi.json');
const target = join(sdkRoot, 'src/generated/openapi.ts');
const require = createRequire(import.meta.url);

export function generate(output) {
  if (!existsSync(spec)) throw new Error(`${relative(process.cwd(), spec)} is missing: run \`npm run openapi\` at the repository root first.`);
  const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js');
  // Properties with a default stay optional: request bodies may leave them out (is_active, role …).
  execFileSync(process.execPath, [cli, spec, '--output', output, '--default-non-nullable', 'false'], { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(output, `${HEADER}\n${readFileSync(output, 'utf8')}`);
}

const HEADER = '// Generated from openapi.json by scripts/generate-types.mjs (openapi-typescript): do not edit (run `npm run generate`).';

/** The file as a list of tokens: whitespace and formatting-only punctuation dropped, literals by value. */
export function tokens(text) {
  const ts = require('typescript');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const out = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if (kind === ts.SyntaxKind.CommaToken || kind === ts.SyntaxKind.SemicolonToken) continue;
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      const words = scanner.getTokenText().replace(/^\/\*\*?|\*\/$|^\/\//g, '').replace(/^\s*\*/gm, ' ').split(/\s+/).filter(Boolean).join(' ');
      if (words) out.push(`comment:${words}`);
      continue;
    }
    out.push(kind === ts.SyntaxKind.StringLiteral ? `string:${scanner.getTokenValue()}` : `${kind}:${scanner.getTokenText()}`);
  }
  return out;
}

/** Undefined when the committed file matches a fresh generation, else a description of the first difference. */
export function difference() {
  if (!existsSync(target)) return `${relative(sdkRoot, target)} does not exist`;
  const dir = mkdtempSync(join(tmpdir(), 'sdk-openapi-'));
  try {
    const fresh = join(dir, 'openapi.ts');
    generate(fresh);
    const want = tokens(readFileSync(fresh, 'utf8'));
    const have = tokens(readFileSync(target, 'utf8'));
    const at = want.findIndex((token, i) => token !== have[i]);
    if (at === -1 && want.length === have.length) return undefined;
    const index = at === -1 ? Math.min(want.length, have.length) : at;
    return `first difference at token ${index}: committed ${JSON.stringify(have.slice(index, index + 6))}, fresh ${JSON.stringify(want.slice(index, index + 6))}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const diff = difference();
    if (diff) {
      console.error(`src/generated/openapi.ts is out of date with openapi.json (${diff}).\nRun \`npm run generate\` in sdks/typescript and adapt the SDK to the change.`);
      process.exit(1);
    }
    console.log('src/generated/openapi.ts matches openapi.json');
  } else {
    generate(target);
    console.log(`wrote ${relative(process.cwd(), target)}`);
  }
}
