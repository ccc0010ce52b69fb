/**
 * Data files shipped beside functions' bundles. Apart from the build settings (./bundling.ts), which
 * re-exports them: the route table names its data files from here, and every handler bundles the route
 * table, so these stay free of the build settings.
 */

/** Files a function reads at run time: bundling copies `from`/`pattern` to `to` beside its bundle. */
export interface DataFiles {
  from: string;
  to: string;
  pattern: string;
}

/**
 * The AI handlers' trained models are data, not code: `npm run train:ai` writes them to `from`, and
 * bundling copies them to `to` beside each AI handler's bundle, where functions/ai/local/model-files.ts
 * reads one language's file on first use.
 */
export const AI_MODEL_FILES: DataFiles = { from: 'functions/ai/local/models', to: 'models', pattern: '*.json.gz' };

/**
 * The OpenAPI document (400 KB of JSON) ships beside its handler as data rather than inside the bundle,
 * where it was two thirds of the code parsed on every cold start; functions/docs/openapi.ts reads it on
 * the first request.
 */
export const OPENAPI_DOCUMENT: DataFiles = { from: '.', to: '.', pattern: 'openapi.json' };

/**
 * The problem types' page (docs/problems.md) ships beside the `$default` route's function, which serves it
 * at /docs/problems, where every problem's `type` points (catalog/problems.ts).
 */
export const PROBLEM_DOCS: DataFiles = { from: 'docs', to: '.', pattern: 'problems.md' };
