import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { newId } from '../../functions/platform/ids';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();
const table = `local-${TABLES.main.id}`;

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});

/** Tuesday 4 March 2031 in Berlin (+01:00), as UTC instants: `at('10:00')` is 09:00Z. */
const at = (clock: string) => new Date(`2031-03-04T${clock}:00+01:00`).toISOString();
const allDay = [{ start: '00:00', end: '24:00' }];
const everyDay = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };

const setBuffers = (resource: string, before: number, after: number) =>
  call('POST', '/schedules', {
    ...authOf(t),
    body: {
      resource_id: resource,
      timezone: 'Europe/Berlin',
      weekly_hours: everyDay,
      buffer_before_minutes: before,
      buffer_after_minutes: after,
    },
  });
const book = (resource: string, start: string, end: string) =>
  call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { phone: '+4915110000077' },
      service: 'Haircut',
      resource_id: resource,
      start_at: at(start),
      end_at: at(end),
      timezone: 'Europe/Berlin',
    },
  });
const slotsOf = async (resource: string, from: string, to: string, minutes: number) => {
  const res = await call(
    'GET',
    `/bookings/availability?${new URLSearchParams({
      resource_id: resource,
      from: at(from),
      to: at(to),
      duration_minutes: String(minutes),
      step_minutes: '5',
    }).toString()}`,
    authOf(t),
  );
  expect(res.status).toBe(200);
  return res.body;
};

describe('buffers between bookings', () => {
  it('keep the resource free before and after each booking, and name the booking in the way', async () => {
    const schedule = await setBuffers('chair-b', 10, 15);
    expect(schedule.status).toBe(201);
    expect(schedule.body).toMatchObject({ buffer_before_minutes: 10, buffer_after_minutes: 15 });

    const first = await book('chair-b', '10:00', '10:45');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ buffer_before_minutes: 10, buffer_after_minutes: 15 });
    // It holds 09:50–11:00; the next one holds from 10 minutes before it starts.
    const tooSoon = await book('chair-b', '11:05', '11:30');
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.code).toBe('booking_conflict');
    expect(tooSoon.body.conflicting_booking).toEqual({
      id: first.body.id,
      resource_id: 'chair-b',
      start_at: at('10:00'),
      end_at: at('10:45'),
    });
    expect(tooSoon.body.detail).toBe(
      `Resource chair-b is already booked from ${at('10:00')} to ${at('10:45')} (${first.body.id}). ` +
        `With the time kept free around bookings, that booking holds it from ${at('09:50')} to ${at('11:00')}, ` +
        `and this one would need it from ${at('10:55')} to ${at('11:45')}.`,
    );
    expect((await book('chair-b', '11:10', '11:30')).status).toBe(201);
    // Before it: a booking ending 09:35 holds until 09:50, where the first one's hold begins.
    expect((await book('chair-b', '09:00', '09:36')).status).toBe(409);
    expect((await book('chair-b', '09:00', '09:35')).status).toBe(201);

    // Availability counts the buffers: busy is the bookings, held is what they hold with their buffers,
    // free is the rest, and slots leave room for their own.
    const day = await slotsOf('chair-b', '08:00', '13:00', 30);
    expect(day).toMatchObject({ buffer_before_minutes: 10, buffer_after_minutes: 15 });
    expect(day.busy).toEqual([
      { start_at: at('09:00'), end_at: at('09:35') },
      { start_at: at('10:00'), end_at: at('10:45') },
      { start_at: at('11:10'), end_at: at('11:30') },
    ]);
    expect(day.held).toEqual([{ start_at: at('08:50'), end_at: at('11:45') }]);
    expect(day.free).toEqual([
      { start_at: at('08:00'), end_at: at('08:50') },
      { start_at: at('11:45'), end_at: at('13:00') },
    ]);
    const starts = day.slots.map((s: { start_at: string }) => s.start_at);
    // Before 08:50, a 30-minute slot with 15 minutes after it must start by 08:05; after 11:45, from 11:55.
    expect(starts.filter((s: string) => s < at('11:45'))).toEqual([at('08:00'), at('08:05')]);
    expect(starts.find((s: string) => s > at('11:45'))).toBe(at('11:55'));
    // Every slot offered can be booked.
    expect((await book('chair-b', '08:05', '08:35')).status).toBe(201);
    expect((await book('chair-b', '11:55', '12:25')).status).toBe(201);
  });

  it('stay with the bookings made under them, and are taken anew when a booking moves', async () => {
    await setBuffers('chair-c', 0, 30);
    const made = await book('chair-c', '10:00', '11:00');
    expect(made.body.buffer_after_minutes).toBe(30);
    const changed = await call('PATCH', '/schedules/chair-c', {
      ...authOf(t),
      body: { buffer_after_minutes: 0, buffer_before_minutes: 5 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ buffer_before_minutes: 5, buffer_after_minutes: 0, version: 2 });
    // The booking still holds until 11:30.
    expect((await book('chair-c', '11:20', '11:40')).status).toBe(409);
    expect((await book('chair-c', '11:35', '11:50')).status).toBe(201);
    // A change of details keeps its buffers; a move takes the schedule's now.
    const noted = await call('PATCH', `/bookings/${made.body.id}`, { ...authOf(t), body: { notes: 'Long hair' } });
    expect(noted.body).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 30 });
    const moved = await call('PATCH', `/bookings/${made.body.id}`, {
      ...authOf(t),
      body: { start_at: at('14:00'), end_at: at('15:00') },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ buffer_before_minutes: 5, buffer_after_minutes: 0 });
    // Its old time is free again, buffer and all; it now holds 13:55–15:00.
    expect((await book('chair-c', '11:00', '11:20')).status).toBe(201);
    expect((await book('chair-c', '13:30', '13:56')).status).toBe(409);
    expect((await book('chair-c', '15:05', '15:30')).status).toBe(201);
    // A booking moved off the resource holds nothing and keeps no buffers.
    const unassigned = await call('PATCH', `/bookings/${made.body.id}`, {
      ...authOf(t),
      body: { resource_id: null },
    });
    expect(unassigned.body).toMatchObject({ resource_id: null, buffer_before_minutes: 0, buffer_after_minutes: 0 });
    expect((await book('chair-c', '14:00', '15:00')).status).toBe(201);
  });

  it('hold between concurrent requests: of two bookings too close together, one is refused', async () => {
    await setBuffers('chair-d', 15, 15);
    // Apart by 20 minutes, but each needs 15 free on the side facing the other.
    const [a, b] = await Promise.all([book('chair-d', '10:00', '10:30'), book('chair-d', '10:50', '11:20')]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body.code).toBe('booking_conflict');
  });

  it('are whole minutes from 0 to 120, and a resource without them keeps none', async () => {
    for (const value of [121, -5, 7.5, '10', null]) {
      const res = await call('POST', '/schedules', {
        ...authOf(t),
        body: { resource_id: 'chair-x', timezone: 'UTC', weekly_hours: {}, buffer_after_minutes: value },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: 'buffer_after_minutes', message: expect.any(String) }]);
    }
    expect((await call('GET', '/schedules/chair-x', authOf(t))).status).toBe(404);
    const plain = await book('chair-none', '10:00', '11:00');
    expect(plain.body).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
    expect((await book('chair-none', '11:00', '12:00')).status).toBe(201);
  });

  it('read as none on schedules and bookings stored before they existed', async () => {
    const stamp = '2026-11-01T00:00:00.000Z';
    await db().send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `TENANT#${t.tenantId}`,
          sk: 'SCHED#chair-legacy',
          resource_id: 'chair-legacy',
          tenant_id: t.tenantId,
          timezone: 'UTC',
          weekly_hours: everyDay,
          date_overrides: [],
          created_at: stamp,
          updated_at: stamp,
          version: 1,
        },
      }),
    );
    const legacy = await call('GET', '/schedules/chair-legacy', authOf(t));
    expect(legacy.body).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
    const booked = await book('chair-legacy', '10:00', '11:00');
    expect(booked.body).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
    // A booking item without the fields (as stored before) reads as none.
    const id = newId('bkg');
    const { buffer_before_minutes: _b, buffer_after_minutes: _a, ...old } = booked.body;
    await db().send(
      new PutCommand({
        TableName: table,
        Item: { pk: `TENANT#${t.tenantId}`, sk: `BKG#${id}`, ...old, id, resource_id: null },
      }),
    );
    const read = await call('GET', `/bookings/${id}`, authOf(t));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, buffer_before_minutes: 0, buffer_after_minutes: 0 });
  });
});
