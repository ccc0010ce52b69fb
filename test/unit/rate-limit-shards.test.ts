import { counterShares } from '../../functions/http/rate-limit';

/** The tenant's hourly counter is sized for the peak second a plan allows, not the hour's average. */
describe('rate-limit counter shards', () => {
  it('give each item at most 1,000 writes a second when the whole limit is spent within a minute', () => {
    for (const limit of [100, 1_000, 60_000, 60_001, 1_000_000, 3_600_000, 10_000_000]) {
      const shares = counterShares(limit);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(limit);
      expect(Math.max(...shares) / 60).toBeLessThanOrEqual(1_000);
    }
    expect(counterShares(60_000)).toHaveLength(1);
    expect(counterShares(1_000_000)).toHaveLength(17);
    expect(counterShares(10_000_000)).toHaveLength(167);
  });
});
