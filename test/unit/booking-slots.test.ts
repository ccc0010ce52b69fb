import {
  MAX_BUFFER_MINUTES,
  MAX_DURATION_MS,
  answerableWindow,
  heldTime,
  availabilityProblem,
  windowLengthProblem,
  mergedWithin,
  firstClash,
  gapsWithin,
  slotsWithin,
  overlaps,
  slotClaims,
  slotIsDead,
  type Interval,
  type SlotClaim,
} from '../../functions/bookings/booking';

const iv = (start_at: string, end_at: string): Interval => ({ start_at, end_at });
const brief = (claims: SlotClaim[]) => claims.map((c) => `${c.bucket[0]}${c.start.slice(11, 16)} ${c.role}`);

describe('slot claims', () => {
  it('never walks more than the longest time a booking holds', () => {
    expect(slotClaims(iv('2031-01-01T00:00:00.000Z', '2031-01-02T04:00:00.000Z'))).toHaveLength(28);
    expect(() => slotClaims(iv('2031-01-01T00:00:00.000Z', '2031-01-02T04:15:00.000Z'))).toThrow(RangeError);
    expect(() => slotClaims(iv('2031-01-01T00:00:00.000Z', 'not a time'))).toThrow(RangeError);
  });

  it('claim a whole hour once, and the quarters of an hour covered in part', () => {
    expect(brief(slotClaims(iv('2031-01-01T09:00:00.000Z', '2031-01-01T10:00:00.000Z')))).toEqual(['h09:00 full']);
    expect(brief(slotClaims(iv('2031-01-01T09:00:00.000Z', '2031-01-01T09:30:00.000Z')))).toEqual([
      'h09:00 partial',
      'q09:00 head',
      'q09:15 head',
    ]);
    expect(brief(slotClaims(iv('2031-01-01T09:20:00.000Z', '2031-01-01T10:40:00.000Z')))).toEqual([
      'h09:00 partial',
      'q09:15 tail',
      'q09:30 head',
      'q09:45 head',
      'h10:00 partial',
      'q10:00 head',
      'q10:15 head',
      'q10:30 head',
    ]);
    expect(brief(slotClaims(iv('2031-01-01T09:05:00.000Z', '2031-01-01T09:10:00.000Z')))).toEqual([
      'h09:00 partial',
      'q09:00 inner',
    ]);
    expect(brief(slotClaims(iv('2031-01-01T09:05:00.000Z', '2031-01-01T09:15:00.000Z')))).toEqual([
      'h09:00 partial',
      'q09:00 tail',
    ]);
  });

  it('cross midnight like any other hour boundary', () => {
    const claims = slotClaims(iv('2031-01-01T23:30:00.000Z', '2031-01-02T00:30:00.000Z'));
    expect(claims.map((c) => `${c.bucket} ${c.start} ${c.role}`)).toEqual([
      'hour 2031-01-01T23:00:00.000Z partial',
      'quarter 2031-01-01T23:30:00.000Z head',
      'quarter 2031-01-01T23:45:00.000Z head',
      'hour 2031-01-02T00:00:00.000Z partial',
      'quarter 2031-01-02T00:00:00.000Z head',
      'quarter 2031-01-02T00:15:00.000Z head',
    ]);
  });

  it('stay at 32 items or fewer for the longest booking, so a reschedule fits one transaction', () => {
    const worst = slotClaims(iv('2031-01-01T10:00:00.001Z', '2031-01-02T09:59:59.999Z'));
    expect(worst).toHaveLength(32);
    expect(worst.filter((c) => c.role === 'full')).toHaveLength(22);
    let max = 0;
    for (let i = 0; i < 2000; i++) {
      const start = Date.UTC(2031, 0, 1) + Math.floor(rand() * 3 * 86_400_000);
      const length = 1 + Math.floor(rand() * MAX_DURATION_MS);
      max = Math.max(max, slotClaims(iv(new Date(start).toISOString(), new Date(start + length).toISOString())).length);
    }
    expect(max).toBeLessThanOrEqual(32);
  });

  it("make every overlapping pair meet in a bucket, and keep disjoint pairs out of each other's roles", () => {
    // Starts on a 1-minute grid (and some off it) within one day, so pairs often share buckets.
    const random = (): Interval => {
      const start =
        Date.UTC(2031, 0, 1) + Math.floor(rand() * 24 * 60) * 60_000 + (rand() < 0.3 ? Math.floor(rand() * 60_000) : 0);
      const length = rand() < 0.8 ? (1 + Math.floor(rand() * 90)) * 60_000 : 1 + Math.floor(rand() * MAX_DURATION_MS);
      return iv(new Date(start).toISOString(), new Date(start + length).toISOString());
    };
    let overlapping = 0;
    for (let i = 0; i < 3000; i++) {
      const a = random();
      const b = random();
      const byKey = new Map(slotClaims(a).map((c) => [`${c.bucket}${c.start}`, c.role]));
      const shared = slotClaims(b)
        .filter((c) => byKey.has(`${c.bucket}${c.start}`))
        .map((c) => [byKey.get(`${c.bucket}${c.start}`), c.role]);
      // Where they meet, the store compares their intervals: a full hour, or a quarter both hold a role in.
      const met = shared.some(([x, y]) => x === 'full' || y === 'full' || (x !== 'partial' && y !== 'partial'));
      if (overlaps(a, b)) {
        overlapping++;
        expect(met).toBe(true);
      } else {
        // A full hour, a head or a tail is held by one booking at a time.
        expect(
          shared.some(([x, y]) => x === 'full' || y === 'full' || (x === y && x !== 'partial' && x !== 'inner')),
        ).toBe(false);
      }
    }
    expect(overlapping).toBeGreaterThan(100);
  });
});

describe('slot conflicts', () => {
  it('report the earliest other booking that overlaps, half-open', () => {
    const holders = [
      { id: 'bkg_b', start_at: '2031-01-01T09:30:00.000Z', end_at: '2031-01-01T10:00:00.000Z' },
      { id: 'bkg_a', start_at: '2031-01-01T09:00:00.000Z', end_at: '2031-01-01T09:15:00.000Z' },
      { id: 'bkg_self', start_at: '2031-01-01T08:00:00.000Z', end_at: '2031-01-01T09:10:00.000Z' },
    ];
    expect(firstClash(holders, iv('2031-01-01T09:10:00.000Z', '2031-01-01T09:45:00.000Z'), 'bkg_self')?.id).toBe(
      'bkg_a',
    );
    expect(firstClash(holders, iv('2031-01-01T09:15:00.000Z', '2031-01-01T09:30:00.000Z'), 'bkg_self')).toBeUndefined();
    expect(firstClash(holders, iv('2031-01-01T08:00:00.000Z', '2031-01-01T08:30:00.000Z'), 'bkg_other')?.id).toBe(
      'bkg_self',
    );
  });

  it('consider buckets that ended more than two days and two hours ago (the longest buffer) dead', () => {
    const now = new Date('2031-01-10T12:00:00.000Z');
    expect(slotIsDead({ end: '2031-01-08T10:00:00.000Z' }, now)).toBe(true);
    expect(slotIsDead({ end: '2031-01-08T10:15:00.000Z' }, now)).toBe(false);
  });
});

/** A fixed-seed generator, so a failure can be reproduced. */
let seed = 42;
function rand(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}

describe('availability', () => {
  const at = (h: number, m = 0) => new Date(Date.UTC(2031, 0, 1, h, m)).toISOString();
  const window = iv(at(9), at(17));
  const longAgo = new Date(0);

  it('clips busy time to the window and merges overlapping and touching bookings', () => {
    const busy = mergedWithin(window, [
      iv(at(11), at(12)),
      iv(at(8), at(9, 30)),
      iv(at(11, 30), at(12, 15)),
      iv(at(12, 15), at(13)),
      iv(at(17), at(18)),
      iv(at(16, 45), at(20)),
    ]);
    expect(busy).toEqual([iv(at(9), at(9, 30)), iv(at(11), at(13)), iv(at(16, 45), at(17))]);
  });

  it('frees the gaps between busy time, and the whole window when nothing is booked', () => {
    expect(gapsWithin(window, [])).toEqual([window]);
    expect(gapsWithin(window, [iv(at(9), at(9, 30)), iv(at(11), at(13))])).toEqual([
      iv(at(9, 30), at(11)),
      iv(at(13), at(17)),
    ]);
    expect(gapsWithin(window, [window])).toEqual([]);
  });

  it('offers slots on the step grid from the window start that fit wholly in free time', () => {
    const free = gapsWithin(window, [iv(at(9, 40), at(11)), iv(at(12), at(16, 30))]);
    // 9:00 would end 9:45, after 9:40; 11:30 would end 12:15; 16:30 would end 17:15.
    expect(slotsWithin(window.start_at, free, 45 * 60_000, 30 * 60_000, longAgo)).toEqual([iv(at(11), at(11, 45))]);
    expect(slotsWithin(window.start_at, free, 30 * 60_000, 30 * 60_000, longAgo)).toEqual([
      iv(at(9), at(9, 30)),
      iv(at(11), at(11, 30)),
      iv(at(11, 30), at(12)),
      iv(at(16, 30), at(17)),
    ]);
  });

  it('never offers a slot that has started', () => {
    const slots = slotsWithin(window.start_at, [window], 60 * 60_000, 60 * 60_000, new Date(at(14, 10)));
    expect(slots).toEqual([iv(at(15), at(16)), iv(at(16), at(17))]);
  });

  it('refuses an empty or reversed window, one over 31 days, one wholly past, and too many slot starts', () => {
    const earlier = new Date(Date.UTC(2030, 11, 1));
    expect(availabilityProblem(window, undefined, earlier)).toBeNull();
    expect(availabilityProblem(iv(at(9), at(9)), undefined, earlier)).toMatch(/after/);
    expect(availabilityProblem(iv(at(10), at(9)), undefined, earlier)).toMatch(/after/);
    const month = iv(at(0), new Date(Date.UTC(2031, 1, 1)).toISOString());
    expect(availabilityProblem(month, 15 * 60_000, earlier)).toBeNull();
    const longer = iv(at(0), new Date(Date.UTC(2031, 1, 1, 0, 1)).toISOString());
    expect(windowLengthProblem(longer)).toMatch(/31 days/);
    expect(windowLengthProblem(month)).toBeNull();
    expect(availabilityProblem(month, 5 * 60_000, earlier)).toMatch(/slot starts/);
    // The schedule keeps the last 24 hours: a window that ended before then is history.
    expect(availabilityProblem(window, undefined, new Date(Date.UTC(2031, 0, 2, 17)))).toMatch(/24 hours/);
    expect(availabilityProblem(window, undefined, new Date(Date.UTC(2031, 0, 2, 16, 59)))).toBeNull();
  });

  it('answers from 24 hours ago at the earliest', () => {
    expect(answerableWindow(window, new Date(Date.UTC(2031, 0, 2, 9)))).toEqual(window);
    expect(answerableWindow(window, new Date(Date.UTC(2031, 0, 2, 12)))).toEqual(iv(at(12), at(17)));
  });

  it('keeps the slot grid on the start asked for when the window is moved up', () => {
    const free = [iv(at(12, 10), at(17))];
    expect(slotsWithin(at(9), free, 60 * 60_000, 60 * 60_000, longAgo).map((s) => s.start_at)).toEqual([
      at(13),
      at(14),
      at(15),
      at(16),
    ]);
  });
});

describe('buffers', () => {
  it('widen the time a booking holds by its minutes before and after', () => {
    const booking = iv('2031-01-01T10:00:00.000Z', '2031-01-01T10:45:00.000Z');
    expect(heldTime(booking)).toEqual(booking);
    expect(heldTime({ ...booking, buffer_before_minutes: 10, buffer_after_minutes: 15 })).toEqual(
      iv('2031-01-01T09:50:00.000Z', '2031-01-01T11:00:00.000Z'),
    );
  });

  it('keep a move of the longest booking with the longest buffers in one transaction (100 items)', () => {
    const longest = (start: string) => {
      const s = Date.parse(start);
      return heldTime({
        start_at: new Date(s).toISOString(),
        end_at: new Date(s + MAX_DURATION_MS).toISOString(),
        buffer_before_minutes: MAX_BUFFER_MINUTES,
        buffer_after_minutes: MAX_BUFFER_MINUTES,
      });
    };
    const claims = (start: string) => slotClaims(longest(start)).length;
    const worst = Math.max(
      ...['2031-01-01T09:05:00.000Z', '2031-01-01T09:10:00.000Z', '2031-01-01T09:00:00.000Z'].map(claims),
    );
    // Its old and new buckets, the booking and up to three events.
    expect(2 * worst + 4).toBeLessThanOrEqual(100);
  });
});
