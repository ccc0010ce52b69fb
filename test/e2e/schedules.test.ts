import { authOf, call, createTenant, listEventually, type TestTenant } from '../support/api';

let t: TestTenant;
let agent: { tenant: string; token: string };
beforeAll(async () => {
  t = await createTenant();
  const key = await call('POST', '/api-keys', { ...authOf(t), body: { name: 'front desk', role: 'agent' } });
  agent = { tenant: t.tenantId, token: key.body.key };
});

const nineToFive = [{ start: '09:00', end: '17:00' }];
/** Monday 3 March 2031 is a Monday; Berlin is on +01:00 until the 30th. */
const weekdays = { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive };

const createSchedule = (body: Record<string, unknown>, auth = authOf(t)) =>
  call('POST', '/schedules', { ...auth, body });
const getSchedule = (resource: string, auth = authOf(t)) => call('GET', `/schedules/${resource}`, auth);
const book = (resource: string, start_at: string, end_at: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { phone: '+4915110000001' },
      service: 'Haircut',
      resource_id: resource,
      start_at,
      end_at,
      timezone: 'Europe/Berlin',
      ...extra,
    },
  });
const availability = (query: Record<string, string>) =>
  call('GET', `/bookings/availability?${new URLSearchParams(query).toString()}`, authOf(t));

describe('schedules', () => {
  it('stores a resource\u2019s opening hours: every weekday, each day in order, overrides by date', async () => {
    const created = await createSchedule({
      resource_id: 'chair-1',
      timezone: 'Europe/Berlin',
      weekly_hours: {
        mon: [
          { start: '13:00', end: '17:00' },
          { start: '09:00', end: '12:00' },
        ],
        sat: [{ start: '10:00', end: '14:00' }],
      },
      date_overrides: [
        { date: '2030-12-31', hours: [] },
        { date: '2030-12-24', hours: [{ start: '09:00', end: '12:00' }] },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.headers.get('location')).toBe('/api/v1/schedules/chair-1');
    expect(created.body).toEqual({
      resource_id: 'chair-1',
      tenant_id: t.tenantId,
      timezone: 'Europe/Berlin',
      weekly_hours: {
        mon: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [{ start: '10:00', end: '14:00' }],
        sun: [],
      },
      date_overrides: [
        { date: '2030-12-24', hours: [{ start: '09:00', end: '12:00' }] },
        { date: '2030-12-31', hours: [] },
      ],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      created_at: expect.any(String),
      updated_at: created.body.created_at,
      version: 1,
    });
    expect((await getSchedule('chair-1')).body).toEqual(created.body);
    // An agent reads them; only an admin sets them.
    expect((await getSchedule('chair-1', agent)).body).toEqual(created.body);
    const byAgent = await createSchedule({ resource_id: 'chair-9', timezone: 'UTC', weekly_hours: {} }, agent);
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.code).toBe('insufficient_role');

    const again = await createSchedule({ resource_id: 'chair-1', timezone: 'UTC', weekly_hours: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('schedule_exists');
    expect((await getSchedule('chair-1')).body.version).toBe(1);

    await createSchedule({ resource_id: 'a-room', timezone: 'UTC', weekly_hours: weekdays });
    const listed = await listEventually('/schedules', authOf(t), (body) => body.data.length === 2);
    expect(listed.body.data.map((s: { resource_id: string }) => s.resource_id)).toEqual(['a-room', 'chair-1']);
    const first = await call('GET', '/schedules?limit=1', authOf(t));
    expect(first.body.pagination).toMatchObject({ limit: 1, has_more: true });

    // Another tenant sees none of them.
    const other = await createTenant();
    expect((await getSchedule('chair-1', authOf(other))).status).toBe(404);
    expect((await call('GET', '/schedules', authOf(other))).body.data).toEqual([]);
    expect((await call('PATCH', '/schedules/chair-1', { ...authOf(other), body: { timezone: 'UTC' } })).status).toBe(
      404,
    );
    expect((await call('DELETE', '/schedules/chair-1', authOf(other))).status).toBe(404);
    expect((await getSchedule('chair-1')).body.version).toBe(1);
  });

  it('refuses hours that cannot be kept, naming the field', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await createSchedule({
        resource_id: 'chair-x',
        timezone: 'Europe/Berlin',
        weekly_hours: {},
        ...body,
      });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      return res.body.errors.map((e: { path: string }) => e.path);
    };
    expect(await refused({ weekly_hours: { mon: [{ start: '9:00', end: '17:00' }] } })).toEqual([
      'weekly_hours.mon.0.start',
    ]);
    expect(await refused({ weekly_hours: { mon: [{ start: '17:00', end: '09:00' }] } })).toEqual([
      'weekly_hours.mon.0.end',
    ]);
    expect(await refused({ weekly_hours: { tue: [{ start: '24:00', end: '24:00' }] } })).toEqual([
      'weekly_hours.tue.0.end',
    ]);
    expect(
      await refused({
        weekly_hours: {
          wed: [
            { start: '09:00', end: '13:00' },
            { start: '12:00', end: '17:00' },
          ],
        },
      }),
    ).toEqual(['weekly_hours.wed']);
    expect(await refused({ weekly_hours: { monday: nineToFive } })).toEqual(['weekly_hours']);
    expect(await refused({ timezone: 'Mars/Olympus' })).toEqual(['timezone']);
    expect(await refused({ date_overrides: [{ date: '2031-02-29', hours: [] }] })).toEqual(['date_overrides.0.date']);
    expect(
      await refused({
        date_overrides: [
          { date: '2030-12-24', hours: [] },
          { date: '2030-12-24', hours: nineToFive },
        ],
      }),
    ).toEqual(['date_overrides']);
    expect(await refused({ resource_id: 'chair 1' })).toEqual(['resource_id']);
    // A path cannot name `.` or `..` (they resolve away), so no schedule can have them.
    expect(await refused({ resource_id: '..' })).toEqual(['resource_id']);
    expect((await getSchedule('chair-x')).status).toBe(404);
  });

  it('keeps active bookings of the resource within its hours, and leaves other resources alone', async () => {
    await createSchedule({
      resource_id: 'chair-2',
      timezone: 'Europe/Berlin',
      weekly_hours: weekdays,
      date_overrides: [{ date: '2031-03-05', hours: [] }],
    });
    // Monday 09:00–10:00 in Berlin (+01:00).
    const inside = await book('chair-2', '2031-03-03T08:00:00Z', '2031-03-03T09:00:00Z');
    expect(inside.status).toBe(201);
    const early = await book('chair-2', '2031-03-03T07:30:00Z', '2031-03-03T08:30:00Z');
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({
      code: 'outside_opening_hours',
      detail: 'chair-2 is not open for all of that time: on 2031-03-03 it is open 09:00\u201317:00 (Europe/Berlin).',
      errors: [{ path: 'start_at' }],
    });
    const holiday = await book('chair-2', '2031-03-05T10:00:00Z', '2031-03-05T11:00:00Z');
    expect(holiday.body.detail).toBe(
      'chair-2 is not open for all of that time: on 2031-03-05 it is closed (Europe/Berlin).',
    );
    const sunday = await book('chair-2', '2031-03-09T10:00:00Z', '2031-03-09T11:00:00Z');
    expect(sunday.body.code).toBe('outside_opening_hours');
    // Without a resource, or with one that has no schedule, any time is bookable.
    expect((await book('chair-unscheduled', '2031-03-09T10:00:00Z', '2031-03-09T11:00:00Z')).status).toBe(201);
    const noResource = await call('POST', '/bookings', {
      ...authOf(t),
      body: {
        customer: { phone: '+4915110000001' },
        service: 'Call',
        start_at: '2031-03-09T10:00:00Z',
        end_at: '2031-03-09T11:00:00Z',
        timezone: 'Europe/Berlin',
      },
    });
    expect(noResource.status).toBe(201);

    // A reschedule is held to the hours; a change of anything else is not.
    const id = inside.body.id;
    const late = await call('PATCH', `/bookings/${id}`, {
      ...authOf(t),
      body: { start_at: '2031-03-03T15:30:00Z', end_at: '2031-03-03T16:30:00Z' },
    });
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('outside_opening_hours');
    const moved = await call('PATCH', `/bookings/${id}`, {
      ...authOf(t),
      body: { start_at: '2031-03-03T15:00:00Z', end_at: '2031-03-03T16:00:00Z' },
    });
    expect(moved.status).toBe(200);
    const toUnscheduled = await call('PATCH', `/bookings/${noResource.body.id}`, {
      ...authOf(t),
      body: { resource_id: 'chair-2' },
    });
    expect(toUnscheduled.body.code).toBe('outside_opening_hours');

    // Hours that shrink later leave the bookings made before them as they are.
    // A PATCH changes the weekdays it names; the others keep their hours.
    const shrunk = await call('PATCH', '/schedules/chair-2', {
      ...authOf(t),
      body: { weekly_hours: { mon: [{ start: '09:00', end: '12:00' }], sat: [] } },
    });
    expect(shrunk.status).toBe(200);
    expect(shrunk.body.weekly_hours).toEqual({
      ...weekdays,
      mon: [{ start: '09:00', end: '12:00' }],
      sat: [],
      sun: [],
    });
    // Still Monday to Sunday, in order.
    const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    expect(Object.keys(shrunk.body.weekly_hours)).toEqual(DAYS);
    expect(Object.keys((await getSchedule('chair-2')).body.weekly_hours)).toEqual(DAYS);
    expect(shrunk.body.date_overrides).toEqual([{ date: '2031-03-05', hours: [] }]);
    const kept = await call('PATCH', `/bookings/${id}`, { ...authOf(t), body: { notes: 'window seat' } });
    expect(kept.status).toBe(200);
    expect(kept.body.start_at).toBe('2031-03-03T15:00:00.000Z');
    const cancelled = await call('DELETE', `/bookings/${id}`, authOf(t));
    expect(cancelled.body.status).toBe('cancelled');
  });

  it('counts the time outside the hours as closed in availability, and offers slots only within them', async () => {
    await createSchedule({
      resource_id: 'chair-3',
      timezone: 'Europe/Berlin',
      weekly_hours: {
        tue: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '14:00' },
        ],
      },
    });
    expect((await book('chair-3', '2031-03-04T09:00:00Z', '2031-03-04T10:00:00Z')).status).toBe(201);
    // Tuesday 4 March 2031, midnight to midnight in Berlin.
    const res = await availability({
      resource_id: 'chair-3',
      from: '2031-03-03T23:00:00Z',
      to: '2031-03-04T23:00:00Z',
      duration_minutes: '60',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      busy: [{ start_at: '2031-03-04T09:00:00.000Z', end_at: '2031-03-04T10:00:00.000Z' }],
      closed: [
        { start_at: '2031-03-03T23:00:00.000Z', end_at: '2031-03-04T08:00:00.000Z' },
        { start_at: '2031-03-04T11:00:00.000Z', end_at: '2031-03-04T12:00:00.000Z' },
        { start_at: '2031-03-04T13:00:00.000Z', end_at: '2031-03-04T23:00:00.000Z' },
      ],
      free: [
        { start_at: '2031-03-04T08:00:00.000Z', end_at: '2031-03-04T09:00:00.000Z' },
        { start_at: '2031-03-04T10:00:00.000Z', end_at: '2031-03-04T11:00:00.000Z' },
        { start_at: '2031-03-04T12:00:00.000Z', end_at: '2031-03-04T13:00:00.000Z' },
      ],
    });
    expect(res.body.slots.map((s: { start_at: string }) => s.start_at)).toEqual([
      '2031-03-04T08:00:00.000Z',
      '2031-03-04T10:00:00.000Z',
      '2031-03-04T12:00:00.000Z',
    ]);
    // Without a schedule nothing is closed.
    const open = await availability({
      resource_id: 'chair-none',
      from: '2031-03-04T08:00:00Z',
      to: '2031-03-04T09:00:00Z',
    });
    expect(open.body).toMatchObject({ closed: [], free: [{ start_at: '2031-03-04T08:00:00.000Z' }] });
  });

  it('changes with If-Match, and once deleted the resource is open at all times again', async () => {
    const created = await createSchedule({ resource_id: 'chair-4', timezone: 'Europe/Berlin', weekly_hours: weekdays });
    const stale = await call('PATCH', '/schedules/chair-4', {
      ...authOf(t),
      headers: { 'If-Match': '"7"' },
      body: { timezone: 'Europe/Lisbon' },
    });
    expect(stale.status).toBe(412);
    const changed = await call('PATCH', '/schedules/chair-4', {
      ...authOf(t),
      headers: { 'If-Match': created.headers.get('etag') ?? '' },
      body: { timezone: 'europe/lisbon' },
    });
    expect(changed.status).toBe(200);
    // Stored as the zone database spells it.
    expect(changed.headers.get('etag')).toBe('"2"');
    expect(changed.body).toMatchObject({ timezone: 'Europe/Lisbon', weekly_hours: { mon: nineToFive }, version: 2 });
    const empty = await call('PATCH', '/schedules/chair-4', { ...authOf(t), body: {} });
    expect(empty.status).toBe(422);
    expect((await call('PATCH', '/schedules/nobody', { ...authOf(t), body: { timezone: 'UTC' } })).status).toBe(404);
    const byAgent = await call('DELETE', '/schedules/chair-4', agent);
    expect(byAgent.status).toBe(403);

    // Sunday is closed, so this is refused until the schedule goes.
    expect((await book('chair-4', '2031-03-09T10:00:00Z', '2031-03-09T11:00:00Z')).status).toBe(422);
    const staleDelete = await call('DELETE', '/schedules/chair-4', { ...authOf(t), headers: { 'If-Match': '"1"' } });
    expect(staleDelete.status).toBe(412);
    const deleted = await call('DELETE', '/schedules/chair-4', { ...authOf(t), headers: { 'If-Match': '"2"' } });
    expect(deleted.status).toBe(204);
    expect((await getSchedule('chair-4')).status).toBe(404);
    expect((await call('DELETE', '/schedules/chair-4', authOf(t))).status).toBe(404);
    expect((await book('chair-4', '2031-03-09T10:00:00Z', '2031-03-09T11:00:00Z')).status).toBe(201);
  });
});
