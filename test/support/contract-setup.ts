import { takeViolations } from './contract';

/**
 * Runs in every test file (jest setupFilesAfterEnv): a test whose API calls broke the contract
 * (openapi.json) fails, naming each violation. Calls made in beforeAll are reported with the first test.
 */
afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) throw new Error(`Responses that break openapi.json:\n- ${violations.join('\n- ')}`);
});

afterAll(() => {
  const violations = takeViolations();
  if (violations.length > 0)
    throw new Error(`Responses that break openapi.json (in hooks):\n- ${violations.join('\n- ')}`);
});
