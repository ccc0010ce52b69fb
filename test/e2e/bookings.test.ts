import { authOf, call, createTenant, eventsOf, settlesTo, type TestTenant } from '../support/api';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const day = (d: number, h: number, m = 0) => new Date(Date.UTC(2031, 0, d, h, m)).toISOString();
/** `hours` before now: a booking that has started (without a resource, it may lie in the past). */
const ago = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
const create = (body: Record<string, unknown>, tenant = t) =>
  call('POST', '/bookings', {
    ...authOf(tenant),
    body: {
      customer: { phone: '+491512000001', name: 'Dora' },
      service: 'Cleaning',
      timezone: 'Europe/Berlin',
      ...body,
    },
  });
const patch = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('PATCH', `/bookings/${id}`, { ...authOf(t), body, headers });

describe('booking lifecycle', () => {
  it('creates confirmed by default, or pending on request', async () => {
    const confirmed = await create({
      start_at: day(1, 9),
      end_at: day(1, 10),
      notes: 'first visit',
      metadata: { source: 'web', returning: false },
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({
      status: 'confirmed',
      service: 'Cleaning',
      timezone: 'Europe/Berlin',
      customer: { name: 'Dora', phone: '+491512000001' },
      version: 1,
      cancellation: null,
      rescheduled_from: null,
    });
    expect(confirmed.body.id).toMatch(/^bkg_/);
    const pending = await create({ start_at: day(1, 11), end_at: day(1, 12), status: 'pending' });
    expect(pending.body.status).toBe('pending');
    const got = await call('GET', `/bookings/${pending.body.id}`, authOf(t));
    expect(got.body).toEqual(pending.body);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('confirms, completes, and refuses transitions the lifecycle does not allow', async () => {
    const b = (await create({ start_at: ago(3), end_at: ago(2), status: 'pending' })).body;
    expect((await patch(b.id, { status: 'completed' })).body.code).toBe('invalid_status_transition');
    expect((await patch(b.id, { status: 'confirmed' })).body.status).toBe('confirmed');
    expect((await patch(b.id, { status: 'completed' })).body.status).toBe('completed');
    const back = await patch(b.id, { status: 'confirmed' });
    expect(back.status).toBe(422);
    const cancel = await call('DELETE', `/bookings/${b.id}`, authOf(t));
    expect(cancel.status).toBe(409);
    const ofB = (events: any[]) => events.filter((e) => e.data.booking.id === b.id);
    const types = ofB(await eventsOf(t, 'booking.*', (events) => ofB(events).length >= 3))
      .map((e) => e.type)
      .sort();
    expect(types).toEqual(['booking.completed', 'booking.confirmed', 'booking.created']);
  });

  it('reschedules with rescheduled_from and a booking.rescheduled event, and updates details', async () => {
    const b = (await create({ start_at: day(3, 9), end_at: day(3, 10) })).body;
    const moved = await patch(
      b.id,
      { start_at: '2031-01-03T11:00:00+01:00', end_at: '2031-01-03T12:00:00+01:00', notes: 'moved by phone' },
      { 'If-Match': '"1"' },
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      start_at: day(3, 10),
      end_at: day(3, 11),
      rescheduled_from: { start_at: b.start_at, end_at: b.end_at },
      notes: 'moved by phone',
      version: 2,
    });
    const ofB = (events: any[]) => events.filter((e) => e.data.booking.id === b.id);
    const events = ofB(await eventsOf(t, 'booking.*', (all) => ofB(all).length >= 3));
    const rescheduled = events.find((e) => e.type === 'booking.rescheduled');
    expect(rescheduled.data.changes.start_at).toEqual({ from: day(3, 9), to: day(3, 10) });
    expect(events.find((e) => e.type === 'booking.updated').data.changes).toEqual({
      notes: { from: null, to: 'moved by phone' },
    });
    expect((await patch(b.id, { service: 'Whitening' }, { 'If-Match': '"1"' })).status).toBe(412);
  });

  it('cancels with a reason; cancelling twice is harmless and emits one event', async () => {
    const b = (await create({ start_at: day(4, 9), end_at: day(4, 10) })).body;
    const first = await call('DELETE', `/bookings/${b.id}?reason=${encodeURIComponent('customer is ill')}`, authOf(t));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'cancelled',
      cancellation: { reason: 'customer is ill', by: { type: 'api_key' } },
    });
    const second = await call('DELETE', `/bookings/${b.id}`, authOf(t));
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(first.body.version);
    const ofB = (events: any[]) => events.filter((e) => e.data.booking.id === b.id);
    expect(ofB(await eventsOf(t, 'booking.cancelled', (events) => ofB(events).length > 0))).toHaveLength(1);
    expect((await patch(b.id, { start_at: day(4, 11), end_at: day(4, 12) })).body.code).toBe('not_reschedulable');
  });

  it('marks a booking completed or no_show only once it has started', async () => {
    const future = (await create({ start_at: day(3, 9), end_at: day(3, 10) })).body;
    for (const status of ['completed', 'no_show'])
      expect(await patch(future.id, { status })).toMatchObject({
        status: 422,
        body: { code: 'booking_not_started', errors: [{ path: 'status' }] },
      });
    // Moved into the past in the same change, it has started: the new start_at is the one that counts.
    const running = await patch(future.id, { start_at: ago(0.25), end_at: ago(-0.5), status: 'completed' });
    expect(running.body).toMatchObject({ status: 'completed', version: 2 });
    const untouched = (await create({ start_at: day(3, 11), end_at: day(3, 12) })).body;
    await patch(untouched.id, { status: 'no_show' });
    expect((await call('GET', `/bookings/${untouched.id}`, authOf(t))).body).toMatchObject({
      status: 'confirmed',
      version: 1,
    });
  });

  it('marks no-shows, cancels through PATCH, and freezes final bookings', async () => {
    const noShow = (await create({ start_at: ago(1), end_at: ago(0.5) })).body;
    const marked = await patch(noShow.id, { status: 'no_show' });
    expect(marked.body.status).toBe('no_show');
    const ofNoShow = (events: any[]) => events.find((e) => e.data.booking.id === noShow.id);
    const updated = ofNoShow(await eventsOf(t, 'booking.updated', (events) => ofNoShow(events) !== undefined));
    expect(updated.data.changes).toEqual({ status: { from: 'confirmed', to: 'no_show' } });
    expect((await patch(noShow.id, { notes: 'late' })).status).toBe(200);
    expect((await patch(noShow.id, { status: 'cancelled' })).status).toBe(422);
    const viaPatch = (await create({ start_at: day(6, 11), end_at: day(6, 12), status: 'pending' })).body;
    // A reason without the cancellation would be dropped: 422 naming the field.
    expect(await patch(viaPatch.id, { service: 'Changed', cancellation_reason: 'x' })).toMatchObject({
      status: 422,
      body: { code: 'field_requires_status', errors: [{ path: 'cancellation_reason' }] },
    });
    const cancelled = await patch(viaPatch.id, { status: 'cancelled', cancellation_reason: 'double entry' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellation: { reason: 'double entry' } });
    expect((await patch(viaPatch.id, { status: 'confirmed' })).status).toBe(422);
    // Once cancelled, another reason would be dropped too.
    expect(await patch(viaPatch.id, { cancellation_reason: 'second' })).toMatchObject({
      status: 422,
      body: { code: 'field_requires_status' },
    });
    const stale = await call('DELETE', `/bookings/${noShow.id}`, { ...authOf(t), headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(412);
  });

  it('emits nothing when a PATCH changes nothing (metadata compared by value)', async () => {
    const b = (await create({ start_at: day(8, 9), end_at: day(8, 10), metadata: { a: 1, b: 'two', c: true } })).body;
    const same = await patch(b.id, { metadata: { c: true, b: 'two', a: 1 }, start_at: '2031-01-08T10:00:00+01:00' });
    expect(same.body.version).toBe(1);
    const ofB = (events: any[]) => events.filter((e) => e.data.booking.id === b.id);
    expect(ofB(await eventsOf(t, 'booking.*', (events) => ofB(events).length > 0))).toHaveLength(1);
  });

  it('validates times, time zone, duration and unknown fields', async () => {
    expect((await create({ start_at: day(5, 10), end_at: day(5, 9) })).body.code).toBe('invalid_time_range');
    expect((await create({ start_at: day(5, 10), end_at: day(7, 10) })).body.code).toBe('invalid_time_range');
    const tz = await create({ start_at: day(5, 9), end_at: day(5, 10), timezone: 'Mars/Olympus' });
    expect(tz.status).toBe(422);
    expect(tz.body.errors[0].path).toBe('timezone');
    expect((await create({ start_at: 'tomorrow', end_at: day(5, 10) })).status).toBe(422);
    expect((await create({ start_at: day(5, 9), end_at: day(5, 10), status: 'completed' })).status).toBe(422);
    expect((await create({ start_at: day(5, 9), end_at: day(5, 10), version: 7 })).status).toBe(422);
    expect((await create({ start_at: day(5, 9), end_at: day(5, 10), metadata: { n: 1e200 } })).status).toBe(422);
    expect((await create({ start_at: day(5, 9), end_at: day(5, 10), metadata: { n: 1e-200 } })).status).toBe(422);
    // A resource of only dots could not be named in a path (its opening hours are at /schedules/{resource_id}).
    const dots = await create({ start_at: day(5, 9), end_at: day(5, 10), resource_id: '..' });
    expect(dots.status).toBe(422);
    expect(dots.body.errors[0].path).toBe('resource_id');
  });

  it("links only a conversation with the booking's own customer, and creates no customer when it refuses", async () => {
    const open = (phone: string) =>
      call('POST', '/conversations', { ...authOf(t), body: { channel: 'sandbox', customer: { phone } } });
    const dora = (await open('+491512000001')).body;
    const emil = (await open('+491512000077')).body;
    const linked = await create({ start_at: day(6, 9), end_at: day(6, 10), conversation_id: dora.id });
    expect(linked.status).toBe(201);
    expect(linked.body.conversation_id).toBe(dora.id);
    const byId = await create({
      start_at: day(6, 11),
      end_at: day(6, 12),
      customer: { id: emil.customer.id },
      conversation_id: dora.id,
    });
    const stranger = await create({
      start_at: day(6, 13),
      end_at: day(6, 14),
      customer: { phone: '+491512000078', name: 'Nobody yet' },
      conversation_id: dora.id,
    });
    const moved = await patch(linked.body.id, { conversation_id: emil.id });
    for (const refused of [byId, stranger, moved]) {
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('conversation_customer_mismatch');
      expect(refused.body.errors[0].path).toBe('conversation_id');
    }
    expect((await call('GET', `/bookings/${linked.body.id}`, authOf(t))).body).toEqual(linked.body);
    // The refused phone found or created no customer: a booking by it now creates one, named as sent.
    const later = await create({
      start_at: day(6, 15),
      end_at: day(6, 16),
      customer: { phone: '+491512000078', name: 'Fred' },
    });
    expect(later.body.customer.name).toBe('Fred');
    const unlinked = await patch(linked.body.id, { conversation_id: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.conversation_id).toBeNull();
    const relinked = await patch(linked.body.id, { conversation_id: dora.id });
    expect(relinked.status).toBe(200);
    expect(relinked.body.conversation_id).toBe(dora.id);
    const byOwnId = await create({
      start_at: day(6, 17),
      end_at: day(6, 18),
      customer: { id: emil.customer.id },
      conversation_id: emil.id,
    });
    expect(byOwnId.status).toBe(201);
    expect(byOwnId.body.customer.id).toBe(emil.customer.id);
    // An unknown customer is named as such, whatever conversation comes with it.
    const unknown = await create({
      start_at: day(6, 19),
      end_at: day(6, 20),
      customer: { id: 'cus_01M8097VP4N21KKVHA4G7BR51Q' },
      conversation_id: dora.id,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('unknown_customer');
  });
});

describe('no double booking', () => {
  it('lets exactly one of many concurrent overlapping bookings of a resource through', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create({ resource_id: 'chair-1', start_at: day(10, 9, i * 3), end_at: day(10, 10, i * 3) }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.code === 'booking_conflict')).toBe(true);
  });

  it('lets concurrent bookings of different slots of one resource all through', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        create({ resource_id: 'chair-busy', start_at: day(13, 8 + i), end_at: day(13, 9 + i) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
  });

  it('refuses active resource bookings in the past, where the schedule no longer looks', async () => {
    const old = await create({
      resource_id: 'chair-9',
      start_at: '2020-01-01T09:00:00Z',
      end_at: '2020-01-01T10:00:00Z',
    });
    expect(old.status).toBe(422);
    expect(old.body.code).toBe('booking_in_past');
    expect((await create({ start_at: '2020-01-01T09:00:00Z', end_at: '2020-01-01T10:00:00Z' })).status).toBe(201);
  });

  it('allows back-to-back bookings, other resources, and the slot of a cancelled booking', async () => {
    const a = await create({ resource_id: 'chair-2', start_at: day(11, 9), end_at: day(11, 10) });
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 10), end_at: day(11, 11) })).status).toBe(201);
    expect((await create({ resource_id: 'chair-3', start_at: day(11, 9), end_at: day(11, 10) })).status).toBe(201);
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 9, 30), end_at: day(11, 9, 45) })).status).toBe(
      409,
    );
    expect((await create({ start_at: day(11, 9), end_at: day(11, 10) })).status).toBe(201); // no resource, no slot
    await call('DELETE', `/bookings/${a.body.id}`, authOf(t));
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 9, 30), end_at: day(11, 9, 45) })).status).toBe(
      201,
    );
  });

  it('refuses a reschedule or a resource change into a taken slot', async () => {
    const a = (await create({ resource_id: 'room-1', start_at: day(12, 9), end_at: day(12, 10) })).body;
    const b = (await create({ resource_id: 'room-1', start_at: day(12, 11), end_at: day(12, 12) })).body;
    expect((await patch(b.id, { start_at: day(12, 9, 30), end_at: day(12, 10, 30) })).status).toBe(409);
    const c = (await create({ resource_id: 'room-2', start_at: day(12, 9), end_at: day(12, 10) })).body;
    expect((await patch(c.id, { resource_id: 'room-1' })).status).toBe(409);
    expect((await patch(b.id, { start_at: day(12, 10), end_at: day(12, 11) })).status).toBe(200);
    expect((await call('GET', `/bookings/${a.id}`, authOf(t))).body.status).toBe('confirmed');
  });
});

describe('resource slots', () => {
  const at = (d: number, h: number, m = 0, s = 0) => new Date(Date.UTC(2031, 1, d, h, m, s)).toISOString();
  const on = (resource: string, start_at: string, end_at: string, extra: Record<string, unknown> = {}) =>
    create({ resource_id: resource, start_at, end_at, ...extra });
  const taken = async (r: { status: number; body: any }, start: string, end: string, resource: string) => {
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('booking_conflict');
    const other = r.body.conflicting_booking;
    expect(other).toEqual({ id: expect.stringMatching(/^bkg_/), resource_id: resource, start_at: start, end_at: end });
    expect(r.body.detail).toBe(`Resource ${resource} is already booked from ${start} to ${end} (${other.id}).`);
    // It names the booking that holds the time: that booking, on that resource, still active.
    const held = (await call('GET', `/bookings/${other.id}`, authOf(t))).body;
    expect(held).toMatchObject({ resource_id: resource, start_at: start, end_at: end });
    expect(['pending', 'confirmed']).toContain(held.status);
  };

  it('lets 30 concurrent bookings of distinct slots of one resource all through, then holds every one', async () => {
    // 20-minute slots from 08:00: heads, tails and whole hours, across ten hours.
    const slots = Array.from({ length: 30 }, (_, i) => [at(1, 8, i * 20), at(1, 8, i * 20 + 20)] as const);
    const results = await Promise.all(slots.map(([s, e]) => on('desk-30', s, e)));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    await taken(await on('desk-30', at(1, 12, 50), at(1, 13, 10)), at(1, 12, 40), at(1, 13, 0), 'desk-30');
    // 7-minute slots that start and end anywhere in a quarter, some strictly inside one.
    const short = Array.from({ length: 30 }, (_, i) => [at(2, 8, i * 7), at(2, 8, i * 7 + 7)] as const);
    const shortResults = await Promise.all(short.map(([s, e]) => on('desk-7', s, e)));
    expect(shortResults.map((r) => r.status)).toEqual(Array(30).fill(201));
    await taken(await on('desk-7', at(2, 8, 8), at(2, 8, 9)), at(2, 8, 7), at(2, 8, 14), 'desk-7');
  });

  it('lets exactly one of many concurrent bookings of the same slot through, whatever its shape', async () => {
    const shapes = [
      [at(3, 9), at(3, 10)], // a whole hour
      [at(3, 11, 10), at(3, 11, 40)], // a tail, a whole quarter and a head
      [at(3, 12, 5), at(3, 12, 10)], // strictly inside one quarter
      [at(3, 22, 50), at(4, 1, 20)], // across midnight
    ] as const;
    for (const [s, e] of shapes) {
      const results = await Promise.all(Array.from({ length: 8 }, () => on('desk-same', s, e)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201)) await taken(r, s, e, 'desk-same');
    }
  });

  it('lets concurrent short bookings inside one quarter through when they do not overlap', async () => {
    const slots = [
      [at(5, 9, 1), at(5, 9, 3)],
      [at(5, 9, 4), at(5, 9, 6)],
      [at(5, 9, 7), at(5, 9, 9)],
      [at(5, 9, 10), at(5, 9, 12)],
    ] as const;
    const results = await Promise.all(slots.map(([s, e]) => on('desk-inner', s, e)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    await taken(await on('desk-inner', at(5, 9, 0), at(5, 9, 2)), at(5, 9, 1), at(5, 9, 3), 'desk-inner');
    await taken(await on('desk-inner', at(5, 9, 11), at(5, 9, 15)), at(5, 9, 10), at(5, 9, 12), 'desk-inner');
    expect((await on('desk-inner', at(5, 9, 12), at(5, 9, 15))).status).toBe(201);
    expect((await on('desk-inner', at(5, 9, 0), at(5, 9, 1))).status).toBe(201);
  });

  it('allows adjacent slots that meet inside a quarter, to the millisecond', async () => {
    expect((await on('desk-adj', at(6, 10, 0), at(6, 10, 7, 30))).status).toBe(201);
    expect((await on('desk-adj', at(6, 10, 7, 30), at(6, 10, 15))).status).toBe(201);
    expect((await on('desk-adj', at(6, 10, 15), '2031-02-06T10:20:00.001Z')).status).toBe(201);
    expect((await on('desk-adj', '2031-02-06T10:20:00.001Z', at(6, 11))).status).toBe(201);
    await taken(
      await on('desk-adj', at(6, 10, 20), '2031-02-06T10:20:00.002Z'),
      at(6, 10, 15),
      '2031-02-06T10:20:00.001Z',
      'desk-adj',
    );
    await taken(
      await on('desk-adj', at(6, 10, 59, 59), at(6, 11, 30)),
      '2031-02-06T10:20:00.001Z',
      at(6, 11),
      'desk-adj',
    );
  });

  it('makes a booking across midnight conflict with bookings on either side', async () => {
    expect((await on('desk-night', at(7, 23, 30), at(8, 0, 30))).status).toBe(201);
    await taken(await on('desk-night', at(7, 23), at(7, 23, 45)), at(7, 23, 30), at(8, 0, 30), 'desk-night');
    await taken(await on('desk-night', at(8, 0, 15), at(8, 1)), at(7, 23, 30), at(8, 0, 30), 'desk-night');
    await taken(await on('desk-night', at(7, 12), at(8, 12)), at(7, 23, 30), at(8, 0, 30), 'desk-night');
    expect((await on('desk-night', at(7, 22, 30), at(7, 23, 30))).status).toBe(201);
    expect((await on('desk-night', at(8, 0, 30), at(8, 1))).status).toBe(201);
    // And the other way round: the sides first, then the crossing booking.
    expect((await on('desk-night-2', at(7, 23), at(7, 23, 45))).status).toBe(201);
    await taken(await on('desk-night-2', at(7, 23, 30), at(8, 0, 30)), at(7, 23), at(7, 23, 45), 'desk-night-2');
  });

  it('holds a day-long booking against anything inside it', async () => {
    const long = await on('desk-day', at(9, 10, 0, 1), at(10, 9, 59, 59));
    expect(long.status).toBe(201);
    await taken(await on('desk-day', at(9, 16, 3), at(9, 16, 4)), at(9, 10, 0, 1), at(10, 9, 59, 59), 'desk-day');
    await taken(await on('desk-day', at(10, 9, 59, 58), at(10, 11)), at(9, 10, 0, 1), at(10, 9, 59, 59), 'desk-day');
    expect((await on('desk-day', at(9, 9), at(9, 10, 0, 1))).status).toBe(201);
    expect((await on('desk-day', at(10, 9, 59, 59), at(10, 10))).status).toBe(201);
    // The largest move there is: a day-long slot to another, with a status change and details.
    const pending = (await on('desk-day-2', at(11, 10, 0, 1), at(12, 9, 59, 59), { status: 'pending' })).body;
    const moved = await patch(pending.id, {
      start_at: at(13, 10, 0, 1),
      end_at: at(14, 9, 59, 59),
      status: 'confirmed',
      notes: 'moved',
    });
    expect(moved.status).toBe(200);
    expect((await on('desk-day-2', at(11, 10, 0, 1), at(12, 9, 59, 59))).status).toBe(201);
    await taken(await on('desk-day-2', at(13, 20), at(13, 21)), at(13, 10, 0, 1), at(14, 9, 59, 59), 'desk-day-2');
  });

  it('frees the slot of a cancelled booking', async () => {
    const b = (await on('desk-cancel', at(15, 9, 5), at(15, 10, 20))).body;
    await taken(await on('desk-cancel', at(15, 10), at(15, 10, 10)), at(15, 9, 5), at(15, 10, 20), 'desk-cancel');
    expect((await call('DELETE', `/bookings/${b.id}`, authOf(t))).status).toBe(200);
    const again = await Promise.all([
      on('desk-cancel', at(15, 9, 5), at(15, 9, 6)),
      on('desk-cancel', at(15, 9, 6), at(15, 10, 20)),
    ]);
    expect(again.map((r) => r.status)).toEqual([201, 201]);
    const inner = (await on('desk-cancel', at(15, 11, 5), at(15, 11, 10))).body;
    await call('DELETE', `/bookings/${inner.id}`, authOf(t));
    expect((await on('desk-cancel', at(15, 11, 0), at(15, 11, 15))).status).toBe(201);
  });

  it('moves the slot on a reschedule: the old one is free, the new one taken', async () => {
    const b = (await on('desk-move', at(16, 9), at(16, 10))).body;
    expect((await patch(b.id, { start_at: at(16, 14, 10), end_at: at(16, 14, 50) })).status).toBe(200);
    await taken(await on('desk-move', at(16, 14, 45), at(16, 15)), at(16, 14, 10), at(16, 14, 50), 'desk-move');
    expect((await on('desk-move', at(16, 9), at(16, 10))).status).toBe(201);
    // Within its own buckets: from a whole half hour to a later, overlapping one.
    const c = (await on('desk-move', at(16, 16), at(16, 16, 30))).body;
    expect((await patch(c.id, { start_at: at(16, 16, 15), end_at: at(16, 16, 45) })).status).toBe(200);
    expect((await on('desk-move', at(16, 16), at(16, 16, 15))).status).toBe(201);
    await taken(await on('desk-move', at(16, 16, 40), at(16, 16, 50)), at(16, 16, 15), at(16, 16, 45), 'desk-move');
    // Inside one quarter, and to another resource.
    const d = (await on('desk-move', at(16, 18, 2), at(16, 18, 4))).body;
    expect((await patch(d.id, { start_at: at(16, 18, 5), end_at: at(16, 18, 8) })).status).toBe(200);
    expect((await on('desk-move', at(16, 18, 1), at(16, 18, 5))).status).toBe(201);
    expect((await patch(d.id, { resource_id: 'desk-move-2' })).status).toBe(200);
    expect((await on('desk-move', at(16, 18, 5), at(16, 18, 8))).status).toBe(201);
    await taken(await on('desk-move-2', at(16, 18), at(16, 18, 6)), at(16, 18, 5), at(16, 18, 8), 'desk-move-2');
    // From part of an hour to all of it and back, and from inside a quarter to its start.
    const e = (await on('desk-move', at(16, 19), at(16, 19, 30))).body;
    expect((await patch(e.id, { end_at: at(16, 20) })).status).toBe(200);
    await taken(await on('desk-move', at(16, 19, 45), at(16, 20, 15)), at(16, 19), at(16, 20), 'desk-move');
    expect((await patch(e.id, { start_at: at(16, 19, 20), end_at: at(16, 19, 25) })).status).toBe(200);
    expect((await on('desk-move', at(16, 19), at(16, 19, 20))).status).toBe(201);
    expect((await on('desk-move', at(16, 19, 25), at(16, 20))).status).toBe(201);
    const f = (await on('desk-move', at(16, 21, 5), at(16, 21, 10))).body;
    expect((await patch(f.id, { start_at: at(16, 21), end_at: at(16, 21, 10) })).status).toBe(200);
    await taken(await on('desk-move', at(16, 21, 1), at(16, 21, 2)), at(16, 21), at(16, 21, 10), 'desk-move');
    expect((await on('desk-move', at(16, 21, 10), at(16, 21, 15))).status).toBe(201);
  });
});

describe('listing bookings', () => {
  it('filters by status, customer and time window, latest start first, with pagination', async () => {
    const l = await createTenant();
    const mk = (d: number, phone: string, status?: string) =>
      create({ start_at: day(d, 9), end_at: day(d, 10), customer: { phone }, ...(status ? { status } : {}) }, l);
    const b1 = (await mk(20, '+491513000001')).body;
    const b2 = (await mk(21, '+491513000002', 'pending')).body;
    const b3 = (await mk(22, '+491513000001')).body;
    const ids = async (q: string) =>
      (await call('GET', `/bookings${q}`, authOf(l))).body.data.map((b: { id: string }) => b.id);
    await settlesTo(() => ids(''), [b3.id, b2.id, b1.id]);
    await settlesTo(() => ids('?status=pending'), [b2.id]);
    await settlesTo(() => ids(`?customer_id=${b1.customer.id}`), [b3.id, b1.id]);
    expect(await ids(`?from=${encodeURIComponent(day(21, 0))}&to=${encodeURIComponent(day(21, 23))}`)).toEqual([b2.id]);
    expect(await ids(`?status=confirmed&customer_id=${b1.customer.id}&from=${encodeURIComponent(day(21, 0))}`)).toEqual(
      [b3.id],
    );
    const page = await call('GET', '/bookings?limit=2', authOf(l));
    expect(page.body.pagination.has_more).toBe(true);
    const rest = await call(
      'GET',
      `/bookings?limit=2&cursor=${encodeURIComponent(page.body.pagination.next_cursor)}`,
      authOf(l),
    );
    expect(rest.body.data.map((b: { id: string }) => b.id)).toEqual([b1.id]);
  });

  it("hides other tenants' bookings behind 404", async () => {
    const other = await createTenant();
    const b = (await create({ start_at: day(25, 9), end_at: day(25, 10) })).body;
    expect((await call('GET', `/bookings/${b.id}`, authOf(other))).status).toBe(404);
    expect((await call('PATCH', `/bookings/${b.id}`, { ...authOf(other), body: { notes: 'x' } })).status).toBe(404);
    expect((await call('DELETE', `/bookings/${b.id}`, authOf(other))).status).toBe(404);
    expect((await call('GET', '/bookings', authOf(other))).body.data).toEqual([]);
  });
});

describe('availability', () => {
  const span = (start_at: string, end_at: string) => ({ start_at, end_at });
  const availability = (query: Record<string, string>, tenant = t) =>
    call('GET', `/bookings/availability?${new URLSearchParams(query).toString()}`, authOf(tenant));

  it('shows the busy and free time of one resource and the slots still bookable', async () => {
    const a = await createTenant();
    const on = (resource_id: string, start_at: string, end_at: string, extra: Record<string, unknown> = {}) =>
      create({ resource_id, start_at, end_at, ...extra }, a);
    const ten = (await on('room-a', day(5, 10), day(5, 11))).body;
    await on('room-a', day(5, 11), day(5, 11, 30), { status: 'pending' });
    await on('room-a', day(5, 13, 20), day(5, 13, 50));
    await on('room-a', day(5, 16, 30), day(5, 19));
    const cancelled = (await on('room-a', day(5, 15), day(5, 16))).body;
    expect((await call('DELETE', `/bookings/${cancelled.id}`, authOf(a))).status).toBe(200);
    await on('room-b', day(5, 14), day(5, 15));

    const window = { resource_id: 'room-a', from: day(5, 9), to: day(5, 18) };
    const got = await availability({ ...window, duration_minutes: '60' }, a);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      resource_id: 'room-a',
      from: day(5, 9),
      to: day(5, 18),
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      busy: [span(day(5, 10), day(5, 11, 30)), span(day(5, 13, 20), day(5, 13, 50)), span(day(5, 16, 30), day(5, 18))],
      // No buffers: the bookings hold their own time.
      held: [span(day(5, 10), day(5, 11, 30)), span(day(5, 13, 20), day(5, 13, 50)), span(day(5, 16, 30), day(5, 18))],
      closed: [], // room-a has no opening hours
      free: [span(day(5, 9), day(5, 10)), span(day(5, 11, 30), day(5, 13, 20)), span(day(5, 13, 50), day(5, 16, 30))],
      slots: [
        span(day(5, 9), day(5, 10)),
        span(day(5, 12), day(5, 13)),
        span(day(5, 14), day(5, 15)),
        span(day(5, 15), day(5, 16)),
      ],
    });
    // Without duration_minutes: no slots. Times with an offset are answered in UTC.
    const plain = await availability({ resource_id: 'room-a', from: '2031-01-05T10:30:00+01:00', to: day(5, 11) }, a);
    expect(plain.body).toMatchObject({ from: day(5, 9, 30), busy: [span(day(5, 10), day(5, 11))], slots: null });

    // A slot offered is bookable; once booked, it is busy. Cancelling frees it again.
    const slot = got.body.slots[1];
    const booked = await on('room-a', slot.start_at, slot.end_at);
    expect(booked.status).toBe(201);
    const after = await availability({ ...window, duration_minutes: '30', step_minutes: '15' }, a);
    expect(after.body.busy).toContainEqual(span(day(5, 12), day(5, 13)));
    expect(after.body.slots.map((s: { start_at: string }) => s.start_at)).toEqual([
      day(5, 9),
      day(5, 9, 15),
      day(5, 9, 30),
      day(5, 11, 30),
      day(5, 14),
      day(5, 14, 15),
      day(5, 14, 30),
      day(5, 14, 45),
      day(5, 15),
      day(5, 15, 15),
      day(5, 15, 30),
      day(5, 15, 45),
      day(5, 16),
    ]);
    // Rescheduling a booking: its own time counts as free.
    const moving = await availability({ ...window, reschedule_booking_id: ten.id }, a);
    expect(moving.body.busy[0]).toEqual(span(day(5, 11), day(5, 11, 30)));
    expect((await call('DELETE', `/bookings/${ten.id}`, authOf(a))).status).toBe(200);
    const freed = await availability(window, a);
    expect(freed.body.busy[0]).toEqual(span(day(5, 11), day(5, 11, 30)));
  });

  it('answers from 24 hours ago at the earliest: older hours are history', async () => {
    const asked = { resource_id: 'room-history', from: ago(24 * 3), to: ago(-2) };
    const got = await availability(asked);
    expect(got.status).toBe(200);
    expect(Date.parse(got.body.from)).toBeGreaterThan(Date.parse(asked.from));
    expect(got.body.free).toEqual([span(got.body.from, asked.to)]);
  });

  it("never shows another tenant's bookings", async () => {
    const a = await createTenant();
    const b = await createTenant();
    expect((await create({ resource_id: 'shared-name', start_at: day(6, 9), end_at: day(6, 10) }, a)).status).toBe(201);
    const window = { resource_id: 'shared-name', from: day(6, 8), to: day(6, 12) };
    expect((await availability(window, a)).body.busy).toEqual([span(day(6, 9), day(6, 10))]);
    expect((await availability(window, b)).body).toMatchObject({ busy: [], free: [span(day(6, 8), day(6, 12))] });
  });

  it('refuses malformed windows and parameters with 400 invalid_query', async () => {
    const base = { resource_id: 'room-a', from: day(7, 9), to: day(7, 17) };
    const refused: Record<string, string>[] = [
      { from: base.from, to: base.to },
      { ...base, resource_id: 'room#1' },
      { ...base, to: day(7, 8) },
      { ...base, to: base.from },
      { ...base, from: 'tomorrow' },
      { ...base, duration_minutes: '4' },
      { ...base, duration_minutes: '1441' },
      { ...base, duration_minutes: '1e2' },
      { ...base, step_minutes: '15' },
      { ...base, to: day(7 + 30, 9), duration_minutes: '30', step_minutes: '5' },
      { ...base, status: 'confirmed' },
      { ...base, reschedule_booking_id: 'bkg_1' },
      // Wholly older than the schedule's 24 hours.
      { ...base, from: ago(24 * 5), to: ago(24 * 3) },
    ];
    for (const query of refused) {
      const res = await availability(query);
      expect([JSON.stringify(query), res.status, res.headers.get('content-type'), res.body.code]).toEqual([
        JSON.stringify(query),
        400,
        'application/problem+json',
        'invalid_query',
      ]);
    }
    expect((await call('GET', '/bookings/availability?resource_id=room-a', { tenant: t.tenantId })).status).toBe(401);
  });

  it('refuses a window over 31 days, or dates beyond the accepted range, with 422 date_out_of_range naming the field', async () => {
    const base = { resource_id: 'room-a', from: day(7, 9), to: day(7, 17) };
    const refused: [Record<string, string>, string, RegExp][] = [
      [{ ...base, to: day(7 + 32, 9) }, 'to', /at most 31 days after `from`/],
      [{ ...base, from: '9999-12-31T00:00:00Z', to: '9999-12-31T12:00:00Z' }, 'from', /at most 5 years from now/],
      // An offset that carries the instant past the year 9999 in UTC.
      [{ ...base, from: '9999-12-31T20:00:00Z', to: '9999-12-31T23:30:00-01:00' }, 'to', /at most 5 years/],
      [{ ...base, from: '1969-12-31T23:00:00Z' }, 'from', /not be before 1970-01-01/],
    ];
    for (const [query, path, message] of refused) {
      const res = await availability(query);
      expect([JSON.stringify(query), res.status, res.headers.get('content-type'), res.body.code]).toEqual([
        JSON.stringify(query),
        422,
        'application/problem+json',
        'date_out_of_range',
      ]);
      expect(res.body.errors).toContainEqual({ path, message: expect.stringMatching(message) });
    }
  });
});
