import { backoffMs, retryOnConflict } from '../../functions/platform/retry';

class Lost extends Error {}

/** A fake operation that loses `losses` times, then returns `'done'`; records the attempts it saw. */
function flaky(losses: number) {
  const seen: number[] = [];
  const operation = async (attempt: number) => {
    seen.push(attempt);
    if (seen.length <= losses) throw new Lost('lost the race');
    return 'done';
  };
  return { operation, seen };
}

describe('retryOnConflict', () => {
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  beforeEach(() => sleeps.splice(0));

  it('retries a lost race, pausing between attempts, until it succeeds', async () => {
    const { operation, seen } = flaky(3);
    await expect(
      retryOnConflict(operation, { attempts: 8, retryable: (e) => e instanceof Lost, sleep, random: () => 1 }),
    ).resolves.toBe('done');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(sleeps).toEqual([20, 40, 80]);
  });

  it('throws what `exhausted` gives once the attempts are used up', async () => {
    const { operation, seen } = flaky(10);
    const outcome = retryOnConflict(operation, {
      attempts: 3,
      retryable: (e) => e instanceof Lost,
      exhausted: () => new Error('too fast'),
      sleep,
    });
    await expect(outcome).rejects.toThrow('too fast');
    expect(seen).toEqual([1, 2, 3]);
    expect(sleeps).toHaveLength(2);
  });

  it('throws the last error when no `exhausted` is given', async () => {
    const { operation } = flaky(10);
    await expect(
      retryOnConflict(operation, { attempts: 2, retryable: (e) => e instanceof Lost, sleep }),
    ).rejects.toBeInstanceOf(Lost);
  });

  it('throws any other error at once', async () => {
    const seen: number[] = [];
    const operation = async (attempt: number) => {
      seen.push(attempt);
      throw new Error('not a race');
    };
    await expect(
      retryOnConflict(operation, { attempts: 5, retryable: (e) => e instanceof Lost, sleep }),
    ).rejects.toThrow('not a race');
    expect(seen).toEqual([1]);
    expect(sleeps).toEqual([]);
  });

  it('waits for real without a sleep of its own', async () => {
    const { operation } = flaky(1);
    await expect(
      retryOnConflict(operation, { attempts: 2, retryable: (e) => e instanceof Lost, random: () => 0 }),
    ).resolves.toBe('done');
  });
});

describe('backoffMs', () => {
  it('is jittered below a bound that doubles from 20 ms and stops at 320 ms', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((attempt) => backoffMs(attempt, () => 1))).toEqual([
      20, 40, 80, 160, 320, 320, 320,
    ]);
    expect(backoffMs(3, () => 0.5)).toBe(40);
    expect(backoffMs(3, () => 0)).toBe(0);
  });

  it('stops at a longer bound when asked (a burst of inbound messages: 640 ms)', () => {
    expect([5, 6, 7, 13].map((attempt) => backoffMs(attempt, () => 1, 6))).toEqual([320, 640, 640, 640]);
  });
});
