import { Chaos, chaosFromEnv, DEFAULT_FAULTS } from '../../local/chaos/config';

describe('the chaos mode settings', () => {
  it('is off unless CHAOS is set, and takes its seed and intensities from the environment', () => {
    expect(chaosFromEnv({})).toBeUndefined();
    expect(chaosFromEnv({ CHAOS: '0' })).toBeUndefined();
    expect(chaosFromEnv({ CHAOS: 'false' })).toBeUndefined();
    const config = chaosFromEnv({ CHAOS: '1', CHAOS_SEED: '7', CHAOS_FAULTS: 'lostResponse=0, replicaLagMs=500' });
    expect(config).toEqual({ seed: '7', faults: { ...DEFAULT_FAULTS, lostResponse: 0, replicaLagMs: 500 } });
  });

  it('refuses an unknown fault or a bad value, naming the faults', () => {
    expect(() => chaosFromEnv({ CHAOS: '1', CHAOS_FAULTS: 'lostResponses=1' })).toThrow(/lostResponse,|replicaLagMs/);
    expect(() => chaosFromEnv({ CHAOS: '1', CHAOS_FAULTS: 'throttle=-1' })).toThrow(/throttle=-1/);
    expect(() => chaosFromEnv({ CHAOS: '1', CHAOS_FAULTS: 'throttle' })).toThrow(/throttle/);
  });

  it('draws the same faults from the same seed, each fault from its own sequence', () => {
    const draws = (seed: string, other: number) => {
      const chaos = new Chaos({ seed, faults: { ...DEFAULT_FAULTS, throttle: 0.5 } });
      // Draws for another fault in between do not move this fault's sequence.
      for (let i = 0; i < other; i++) chaos.random('replicaLag');
      return Array.from({ length: 50 }, () => chaos.strikes('throttle'));
    };
    expect(draws('42', 0)).toEqual(draws('42', 17));
    expect(draws('42', 0)).not.toEqual(draws('43', 0));
    expect(draws('42', 0).filter(Boolean).length).toBeGreaterThan(10);
    const off = new Chaos({ seed: '42', faults: { ...DEFAULT_FAULTS, throttle: 0 } });
    expect(Array.from({ length: 100 }, () => off.strikes('throttle'))).not.toContain(true);
  });

  it('bounds draws by the fault and shuffles reproducibly', () => {
    const chaos = new Chaos({ seed: '1', faults: { ...DEFAULT_FAULTS, replicaLagMs: 20 } });
    const lags = Array.from({ length: 200 }, () => chaos.upTo('replicaLagMs'));
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...lags)).toBeLessThanOrEqual(20);
    const shuffled = (seed: string) => new Chaos({ seed, faults: DEFAULT_FAULTS }).shuffle([1, 2, 3, 4, 5, 6], 'order');
    expect(shuffled('1')).toEqual(shuffled('1'));
    expect([...shuffled('1')].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
