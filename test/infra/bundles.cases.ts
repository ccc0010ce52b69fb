import { App, Stack } from 'aws-cdk-lib';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { routeDefine } from '../../catalog/bundling';
import { ROUTES } from '../../catalog/routes';
import { AppFunction, bundleKey, type AppFunctionProps } from '../../lib/api-function';
import { bundlesDir } from './synth';

// The shared synth takes every function's code from bundles built ahead in one process
// (lib/function-bundles.ts). Each kind is bundled here by NodejsFunction itself, as `cdk synth` does,
// and must come out byte for byte the same: a route function (its route written in, the AI models and the
// OpenAPI document beside it), one with a package installed and a bundle built beside it, one that keeps
// that bundle in its own, and a worker.
/** A route function's props, as the API stack gives them. */
const routeFunction = (id: string): AppFunctionProps => {
  const route = ROUTES.find((r) => r.id === id)!;
  return { handler: route.handler, ai: route.ai, dataFiles: route.dataFiles, define: routeDefine(route) };
};
const KINDS: [string, AppFunctionProps][] = [
  ['ai-analyze', routeFunction('ai-analyze')],
  ['openapi', routeFunction('openapi')],
  ['payments-create', routeFunction('payments-create')],
  ['media-uploads-create', routeFunction('media-uploads-create')],
  ['a worker', { handler: 'outbox/dispatch-worker' }],
];

/** Every file of a folder, by relative path, with its bytes. */
function filesOf(dir: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(dir, full)] = readFileSync(full);
    }
  };
  walk(dir);
  return files;
}

describe('bundles built ahead of the synth', () => {
  it.each(KINDS)('%s: the same files as NodejsFunction bundles', (_, props) => {
    const app = new App();
    const fn = new AppFunction(new Stack(app, 'Bundled'), 'Fn', props);
    app.synth();
    const asset = readdirSync(app.outdir).find((n) => n.startsWith('asset.'))!;
    const ours = filesOf(join(bundlesDir, bundleKey(fn.bundle)));
    const cdks = filesOf(join(app.outdir, asset));
    expect(Object.keys(ours).sort()).toEqual(Object.keys(cdks).sort());
    expect(Object.keys(ours).filter((path) => !ours[path]!.equals(cdks[path]!))).toEqual([]);
  });
});
