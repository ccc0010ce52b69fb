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
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /**
   * The SDK is bundled (pinned, tree-shaken), except the Secrets Manager client: it is imported lazily
   * on the first request only, so it is taken from the Lambda runtime's own SDK rather than parsed
   * with every cold start.
   */
  external: ['@aws-sdk/client-secrets-manager'],
};
