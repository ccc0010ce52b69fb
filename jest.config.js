/** ESM jest: handlers and middy are ESM-only, so tests run as native ES modules. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // Contract tests: every API response of a test is checked against openapi.json.
  setupFilesAfterEnv: ['<rootDir>/test/support/contract-setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
