import { authOf, call, createTenant, eventsOf, type TestTenant } from '../support/api';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const day = (d: number, h: number, m = 0) => new Date(Date.UTC(2031, 0, d, h, m)).toISOString();
const create = (body: Record<string, unknown>, tenant = t) =>
  call('POST', '/bookings', { ...authOf(tenant), body: { customer: { phone: '+491512000001', name: 'Dora' }, service: 'Cleaning', timezone: 'Europe/Berlin', ...body } });
const patch = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) => call('PATCH', `/bookings/${id}`, { ...authOf(t), body, headers });

describe('booking lifecycle', () => {
  it('creates confirmed by default, or pending on request', async () => {
    const confirmed = await create({ start_at: day(1, 9), end_at: day(1, 10), notes: 'first visit', metadata: { source: 'web', returning: false } });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({ status: 'confirmed', service: 'Cleaning', timezone: 'Europe/Berlin', customer: { name: 'Dora', phone: '+491512000001' }, version: 1, cancellation: null, rescheduled_from: null });
    expect(confirmed.body.id).toMatch(/^bkg_/);
    const pending = await create({ start_at: day(1, 11), end_at: day(1, 12), status: 'pending' });
    expect(pending.body.status).toBe('pending');
    const got = await call('GET', `/bookings/${pending.body.id}`, authOf(t));
    expect(got.body).toEqual(pending.body);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('confirms, completes, and refuses transitions the lifecycle does not allow', async () => {
    const b = (await create({ start_at: day(2, 9), end_at: day(2, 10), status: 'pending' })).body;
    expect((await patch(b.id, { status: 'completed' })).body.code).toBe('invalid_status_transition');
    expect((await patch(b.id, { status: 'confirmed' })).body.status).toBe('confirmed');
    expect((await patch(b.id, { status: 'completed' })).body.status).toBe('completed');
    const back = await patch(b.id, { status: 'confirmed' });
    expect(back.status).toBe(422);
    const cancel = await call('DELETE', `/bookings/${b.id}`, authOf(t));
    expect(cancel.status).toBe(409);
    const types = (await eventsOf(t, 'booking.*')).filter((e) => e.data.booking.id === b.id).map((e) => e.type).sort();
    expect(types).toEqual(['booking.completed', 'booking.confirmed', 'booking.created']);
  });

  it('reschedules with rescheduled_from and a booking.rescheduled event, and updates details', async () => {
    const b = (await create({ start_at: day(3, 9), end_at: day(3, 10) })).body;
    const moved = await patch(b.id, { start_at: '2031-01-03T11:00:00+01:00', end_at: '2031-01-03T12:00:00+01:00', notes: 'moved by phone' }, { 'If-Match': '"1"' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start_at: day(3, 10), end_at: day(3, 11), rescheduled_from: { start_at: b.start_at, end_at: b.end_at }, notes: 'moved by phone', version: 2 });
    const events = (await eventsOf(t, 'booking.*')).filter((e) => e.data.booking.id === b.id);
    const rescheduled = events.find((e) => e.type === 'booking.rescheduled');
    expect(rescheduled.data.changes.start_at).toEqual({ from: day(3, 9), to: day(3, 10) });
    expect(events.find((e) => e.type === 'booking.updated').data.changes).toEqual({ notes: { from: null, to: 'moved by phone' } });
    expect((await patch(b.id, { service: 'Whitening' }, { 'If-Match': '"1"' })).status).toBe(412);
  });

  it('cancels with a reason; cancelling twice is harmless and emits one event', async () => {
    const b = (await create({ start_at: day(4, 9), end_at: day(4, 10) })).body;
    const first = await call('DELETE', `/bookings/${b.id}?reason=${encodeURIComponent('customer is ill')}`, authOf(t));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'cancelled', cancellation: { reason: 'customer is ill', by: { type: 'api_key' } } });
    const second = await call('DELETE', `/bookings/${b.id}`, authOf(t));
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(first.body.version);
    expect((await eventsOf(t, 'booking.cancelled')).filter((e) => e.data.booking.id === b.id)).toHaveLength(1);
    expect((await patch(b.id, { start_at: day(4, 11), end_at: day(4, 12) })).body.code).toBe('not_reschedulable');
  });

  it('marks no-shows, cancels through PATCH, and freezes final bookings', async () => {
    const noShow = (await create({ start_at: day(6, 9), end_at: day(6, 10) })).body;
    const marked = await patch(noShow.id, { status: 'no_show' });
    expect(marked.body.status).toBe('no_show');
    const updated = (await eventsOf(t, 'booking.updated')).find((e) => e.data.booking.id === noShow.id);
    expect(updated.data.changes).toEqual({ status: { from: 'confirmed', to: 'no_show' } });
    expect((await patch(noShow.id, { notes: 'late' })).status).toBe(200);
    expect((await patch(noShow.id, { status: 'cancelled' })).status).toBe(422);
    const viaPatch = (await create({ start_at: day(6, 11), end_at: day(6, 12), status: 'pending' })).body;
    const cancelled = await patch(viaPatch.id, { status: 'cancelled', cancellation_reason: 'double entry' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellation: { reason: 'double entry' } });
    expect((await patch(viaPatch.id, { status: 'confirmed' })).status).toBe(422);
    const stale = await call('DELETE', `/bookings/${noShow.id}`, { ...authOf(t), headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(412);
  });

  it('emits nothing when a PATCH changes nothing (metadata compared by value)', async () => {
    const b = (await create({ start_at: day(8, 9), end_at: day(8, 10), metadata: { a: 1, b: 'two', c: true } })).body;
    const same = await patch(b.id, { metadata: { c: true, b: 'two', a: 1 }, start_at: '2031-01-08T10:00:00+01:00' });
    expect(same.body.version).toBe(1);
    expect((await eventsOf(t, 'booking.*')).filter((e) => e.data.booking.id === b.id)).toHaveLength(1);
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
  });
});

describe('no double booking', () => {
  it('lets exactly one of many concurrent overlapping bookings of a resource through', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create({ resource_id: 'chair-1', start_at: day(10, 9, i * 3), end_at: day(10, 10, i * 3) })),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.code === 'booking_conflict')).toBe(true);
  });

  it('lets concurrent bookings of different slots of one resource all through', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ resource_id: 'chair-busy', start_at: day(13, 8 + i), end_at: day(13, 9 + i) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
  });

  it('refuses active resource bookings in the past, where the schedule no longer looks', async () => {
    const old = await create({ resource_id: 'chair-9', start_at: '2020-01-01T09:00:00Z', end_at: '2020-01-01T10:00:00Z' });
    expect(old.status).toBe(422);
    expect(old.body.code).toBe('booking_in_past');
    expect((await create({ start_at: '2020-01-01T09:00:00Z', end_at: '2020-01-01T10:00:00Z' })).status).toBe(201);
  });

  it('allows back-to-back bookings, other resources, and the slot of a cancelled booking', async () => {
    const a = await create({ resource_id: 'chair-2', start_at: day(11, 9), end_at: day(11, 10) });
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 10), end_at: day(11, 11) })).status).toBe(201);
    expect((await create({ resource_id: 'chair-3', start_at: day(11, 9), end_at: day(11, 10) })).status).toBe(201);
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 9, 30), end_at: day(11, 9, 45) })).status).toBe(409);
    expect((await create({ start_at: day(11, 9), end_at: day(11, 10) })).status).toBe(201); // no resource, no slot
    await call('DELETE', `/bookings/${a.body.id}`, authOf(t));
    expect((await create({ resource_id: 'chair-2', start_at: day(11, 9, 30), end_at: day(11, 9, 45) })).status).toBe(201);
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

describe('listing bookings', () => {
  it('filters by status, customer and time window, latest start first, with pagination', async () => {
    const l = await createTenant();
    const mk = (d: number, phone: string, status?: string) => create({ start_at: day(d, 9), end_at: day(d, 10), customer: { phone }, ...(status ? { status } : {}) }, l);
    const b1 = (await mk(20, '+491513000001')).body;
    const b2 = (await mk(21, '+491513000002', 'pending')).body;
    const b3 = (await mk(22, '+491513000001')).body;
    const ids = async (q: string) => (await call('GET', `/bookings${q}`, authOf(l))).body.data.map((b: { id: string }) => b.id);
    expect(await ids('')).toEqual([b3.id, b2.id, b1.id]);
    expect(await ids('?status=pending')).toEqual([b2.id]);
    expect(await ids(`?customer_id=${b1.customer.id}`)).toEqual([b3.id, b1.id]);
    expect(await ids(`?from=${encodeURIComponent(day(21, 0))}&to=${encodeURIComponent(day(21, 23))}`)).toEqual([b2.id]);
    expect(await ids(`?status=confirmed&customer_id=${b1.customer.id}&from=${encodeURIComponent(day(21, 0))}`)).toEqual([b3.id]);
    const page = await call('GET', '/bookings?limit=2', authOf(l));
    expect(page.body.pagination.has_more).toBe(true);
    const rest = await call('GET', `/bookings?limit=2&cursor=${encodeURIComponent(page.body.pagination.next_cursor)}`, authOf(l));
    expect(rest.body.data.map((b: { id: string }) => b.id)).toEqual([b1.id]);
  });

  it('hides other tenants\' bookings behind 404', async () => {
    const other = await createTenant();
    const b = (await create({ start_at: day(25, 9), end_at: day(25, 10) })).body;
    expect((await call('GET', `/bookings/${b.id}`, authOf(other))).status).toBe(404);
    expect((await call('PATCH', `/bookings/${b.id}`, { ...authOf(other), body: { notes: 'x' } })).status).toBe(404);
    expect((await call('DELETE', `/bookings/${b.id}`, authOf(other))).status).toBe(404);
    expect((await call('GET', '/bookings', authOf(other))).body.data).toEqual([]);
  });
});
