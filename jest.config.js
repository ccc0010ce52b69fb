/**
 * ESM jest (handlers and middy are ESM-only, so tests run as native ES modules), in three projects:
 *
 * - `unit` (test/unit): pure logic and in-memory fakes; no global setup, no Java, no network.
 *   `npm run test:unit` runs it alone.
 * - `runtime` (test/integration, test/e2e): against the real local runtime, which the project's global
 *   setup starts once (DynamoDB Local on Java, the SQS emulator, the gateway). Jest runs a project's
 *   global setup only when one of its test files is selected.
 * - `models` (test/models): trains the local AI models and evaluates them on the held-out sets; no Java,
 *   a few seconds of CPU.
 * - `infra` (test/infra): the CDK app, synthesized once for all its files (test/infra/synth.ts).
 *
 * `--selectProjects unit runtime` picks projects; a file path picks its project by itself.
 */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': '<rootDir>/test/support/esbuild-transform.mjs',
  },
};

export default {
  // Two for the CPU-bound projects; `npm run test:runtime` asks for four: its files mostly wait (on pollers,
  // retry delays, timers, runtimes of their own), and its workers used about 2 % of a core each.
  maxWorkers: 2,
  // A global setting (Jest has no per-project timeout): the runtime-backed tests need it.
  testTimeout: 60000,
  // The runtime files that wait longest start first, also on a clean clone (test/support/sequencer.mjs).
  testSequencer: '<rootDir>/test/support/sequencer.mjs',
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      ...base,
      displayName: 'runtime',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
      // Contract tests: every API response of a test is checked against openapi.json.
      setupFilesAfterEnv: ['<rootDir>/test/support/contract-setup.ts'],
    },
    {
      ...base,
      displayName: 'models',
      testMatch: ['<rootDir>/test/models/**/*.test.ts'],
    },
    {
      ...base,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
    },
  ],
};
