/**
 * How every Lambda is bundled, as plain esbuild settings. The function construct maps them onto
 * NodejsFunction, and `npm run bench` builds with the very same settings to measure the bundles.
 */
export const BUNDLING = {
  format: 'esm' as const,
  platform: 'node' as const,
  target: 'node22',
  minify: true,
  treeShaking: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  /** ESM bundles still contain CommonJS dependencies that call require(). */
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /** The SDK is bundled (pinned, tree-shaken) rather than taken from the runtime. */
  external: [] as string[],
};
