import { join } from 'node:path';
import { ESLint } from 'eslint';

/**
 * The import boundaries of eslint.config.js (docs/design.md "Layout") must keep biting: deliberate violations,
 * linted as if they were real files, are reported, and an allowed import is not. Only the boundary rule
 * runs, without type information, so this stays fast.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const RULE = 'import-x/no-restricted-paths';

const eslint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => ruleId === RULE,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The boundary messages for `code` linted as the existing file `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const violations: [string, string, string, RegExp][] = [
  [
    'catalog imports functions',
    'catalog/cors.ts',
    "import { clock } from '../functions/platform/clock';",
    /catalog\/ is pure data/,
  ],
  ['catalog imports a package', 'catalog/cors.ts', "import { z } from 'zod';", /catalog\/ is pure data/],
  [
    'lib imports local',
    'lib/app.ts',
    "import { startLocalRuntime } from '../local/runtime';",
    /lib\/ \(CDK\) reads only catalog/,
  ],
  [
    'lib imports functions',
    'lib/app.ts',
    "import { clock } from '../functions/platform/clock';",
    /lib\/ \(CDK\) reads only catalog/,
  ],
  [
    'functions imports lib',
    'functions/platform/clock.ts',
    "import { BUNDLING } from '../../lib/api-function';",
    /Lambda code never imports/,
  ],
  [
    'functions imports local',
    'functions/conversations/service.ts',
    "import { freePort } from '../../local/ports';",
    /Lambda code never imports/,
  ],
  [
    'functions imports test',
    'functions/conversations/service.ts',
    "import { call } from '../../test/support/api';",
    /Lambda code never imports/,
  ],
  [
    'functions imports contract',
    'functions/conversations/service.ts',
    "import * as openapi from '../../contract/openapi';",
    /Lambda code never imports/,
  ],
  [
    'platform imports a feature',
    'functions/platform/clock.ts',
    "import { listEvents } from '../events/store';",
    /base layer/,
  ],
  [
    'platform imports http',
    'functions/platform/clock.ts',
    "import { httpHandler } from '../http/handler';",
    /base layer/,
  ],
  [
    'a service imports http',
    'functions/conversations/service.ts',
    "import { httpHandler } from '../http/handler';",
    /Only handler and worker modules/,
  ],
  [
    'a store imports http',
    'functions/conversations/store.ts',
    "import { etag } from '../http/handler';",
    /Only handler and worker modules/,
  ],
  [
    'a store imports a service',
    'functions/conversations/store.ts',
    "import * as service from './service';",
    /never imports a service/,
  ],
  [
    'a store imports a handler',
    'functions/conversations/store.ts',
    "import { handler } from './create';",
    /never imports a handler/,
  ],
  [
    'a feature imports a module another feature keeps to itself',
    'functions/ai/service.ts',
    "import { everySchedule } from '../bookings/schedule-store';",
    /only through their public modules/,
  ],
  [
    'the HTTP chain imports a feature module that is not public',
    'functions/http/access.ts',
    "import { loginHandler } from '../auth/login';",
    /only through their public modules/,
  ],
  [
    'the outbox dispatcher reads a store that is not public',
    'functions/outbox/dispatch-worker.ts',
    "import { listChannels } from '../channels/store';",
    /only through their public modules/,
  ],
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(violations)('reports: %s', async (_name, file, code, message) => {
    const errors = await boundaryErrors(file, `${code}\nexport {};\n`);
    // One zone at least says why (platform → http breaks two rules at once).
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    for (const error of errors) expect(error).toMatch(new RegExp(`^${RULE}: `));
  });

  it.each([
    [
      'a handler uses the HTTP chain',
      'functions/conversations/create.ts',
      "import { httpHandler } from '../http/handler';",
    ],
    [
      'a worker uses the platform layer',
      'functions/outbox/dispatch-worker.ts',
      "import { clock } from '../platform/clock';",
    ],
    ['a service uses its store', 'functions/conversations/service.ts', "import * as store from './store';"],
    [
      'a feature imports another feature\u2019s public module',
      'functions/ai/service.ts',
      "import { schedulesOf } from '../bookings/schedule-service';",
    ],
    [
      'a feature imports its own modules',
      'functions/bookings/service.ts',
      "import * as store from './schedule-store';",
    ],
    ['lib reads catalog', 'lib/app.ts', "import { ROUTES } from '../catalog/routes';"],
    ['local runs handlers', 'local/gateway.ts', "import { httpHandler } from '../functions/http/handler';"],
  ])('allows: %s', async (_name, file, code) => {
    expect(await boundaryErrors(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
