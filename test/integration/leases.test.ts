import { randomUUID } from 'node:crypto';
import { acquireLease, releaseLease, SCHEDULED_RUN_LEASE_MS } from '../../functions/platform/leases';
import { scheduledWorker } from '../../functions/platform/workers';
import { WORKER_TIMEOUT_SECONDS } from '../../catalog/resources';
import { useRuntimeAws } from '../support/aws';

/**
 * Scheduled workers keep from overlapping with a conditional lease item in the ephemeral table (instead
 * of reserved concurrency): against DynamoDB Local, one holder at a time, a lapsed lease passes on, and a
 * late holder never frees its successor's lease.
 */
useRuntimeAws();

const name = () => `test-${randomUUID()}`;
const at = (ms: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, 0) + ms);

it('is held by one of many callers at once, and free again once given back', async () => {
  const lease = name();
  const taken = await Promise.all(Array.from({ length: 12 }, () => acquireLease(lease, at(0), 30_000)));
  const holders = taken.filter((t) => t !== undefined);
  expect(holders).toHaveLength(1);
  expect(await acquireLease(lease, at(29_000), 30_000)).toBeUndefined();
  await releaseLease(holders[0]!);
  expect(await acquireLease(lease, at(29_000), 30_000)).toBeDefined();
});

it('passes on once lapsed, and the late holder cannot release its successor', async () => {
  const lease = name();
  const first = await acquireLease(lease, at(0), 30_000);
  expect(first).toBeDefined();
  const second = await acquireLease(lease, at(30_000), 30_000);
  expect(second).toBeDefined();
  // The first holder finishes late: its release must leave the second's lease in place.
  await releaseLease(first!);
  expect(await acquireLease(lease, at(31_000), 30_000)).toBeUndefined();
  await releaseLease(second!);
  expect(await acquireLease(lease, at(31_000), 30_000)).toBeDefined();
});

it('outlasts a run that Lambda kills at its timeout', () => {
  expect(SCHEDULED_RUN_LEASE_MS).toBeGreaterThan(WORKER_TIMEOUT_SECONDS * 1000);
});

describe('a scheduled worker', () => {
  it('skips a run while another runs, and runs again once it is done, even after a failure', async () => {
    let finish!: () => void;
    const blocked = new Promise<void>((ok) => (finish = ok));
    let calls = 0;
    let fail = false;
    const worker = scheduledWorker(name(), { done: 0 }, async () => {
      calls++;
      if (fail) throw new Error('run failed');
      await blocked;
      return { done: 1 };
    });
    const first = worker();
    // Once the first run has taken the lease (and started), it holds it until it finishes.
    while (calls < 1) await new Promise((ok) => setTimeout(ok, 10));
    expect(await worker()).toEqual({ done: 0, skipped: true });
    expect(calls).toBe(1);
    finish();
    expect(await first).toEqual({ done: 1, skipped: false });
    fail = true;
    await expect(worker()).rejects.toThrow('run failed');
    // A failed run gave its lease back too.
    fail = false;
    expect(await worker()).toEqual({ done: 1, skipped: false });
    expect(calls).toBe(3);
  });
});
