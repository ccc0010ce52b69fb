import { App } from 'aws-cdk-lib';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdkApp } from '../../lib/app';
import { PREBUILT_BUNDLES_CONTEXT, buildFunctionBundles, functionBundles } from '../../lib/function-bundles';

/**
 * The one real synth of the infra tests (esbuild bundling of every function, offline: most of their
 * time, so built ahead in one process by lib/function-bundles.ts, as NodejsFunction would), shared by every infra case module through test/infra/infra.test.ts. Bedrock is configured
 * through an EU cross-region inference profile (`cdk deploy -c bedrockModelId=…`), and a tiny stand-in
 * dashboard build (what `npm run build:dashboard` writes to dashboard/dist) is deployed.
 */
export const BEDROCK_MODEL = 'eu.anthropic.claude-3-5-haiku-20241022-v1:0';

/** A folder with a stand-in dashboard build; the caller removes it. */
export function standInDashboardBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Dashboard build</title>');
  writeFileSync(join(dist, 'assets', 'index-3f9a1c.js'), 'console.log(1);');
  return dist;
}

export const dashboardDist = standInDashboardBuild();
const context = { bedrockModelId: BEDROCK_MODEL };
/** The bundles, in a folder the caller removes. */
export const bundlesDir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
await buildFunctionBundles(functionBundles(context, { dashboardDist }), bundlesDir);
export const built = buildCdkApp(new App({ context: { ...context, [PREBUILT_BUNDLES_CONTEXT]: bundlesDir } }), {
  dashboardDist,
});
export const assembly = built.app.synth();
