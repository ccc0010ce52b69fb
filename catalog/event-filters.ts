import type { FilterPattern } from './workers';

/**
 * Lambda's event filtering, as the local stream poller, the stream-reactions worker's routing and
 * `npm run ops` replays evaluate it: the subset of Lambda filter syntax the worker table uses (value
 * lists, `{prefix}` and `{exists}` matchers).
 */
export function matchesFilter(record: unknown, pattern: FilterPattern): boolean {
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (record as Record<string, unknown> | undefined)?.[key];
    if (Array.isArray(expected)) {
      return expected.some((rule) =>
        typeof rule === 'object' && rule !== null && 'exists' in rule
          ? (actual !== undefined) === (rule as { exists: boolean }).exists
          : typeof rule === 'object' && rule !== null && 'prefix' in rule
            ? typeof actual === 'string' && actual.startsWith(String((rule as { prefix: string }).prefix))
            : actual === rule,
      );
    }
    return typeof expected === 'object' && expected !== null && matchesFilter(actual, expected as FilterPattern);
  });
}
