// Conversations, messages, channels, customers, bookings, schedules, AI functions and events, against the real runtime.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError, type Conversation, type EventOf } from '../src/index.js';
import { eventually, newTenant, phone, type TestTenant } from './helpers.js';

let t: TestTenant;
before(async () => {
  t = await newTenant();
});

describe('channels', () => {
  it('list gives the sandbox', async () => {
    const channels = await t.client.channels.list();
    assert.deepEqual(channels, [{ channel: 'sandbox' }]);
  });

  it('sandboxInbound opens a conversation with the customer message, and a repeated provider id is a duplicate', async () => {
    const from = phone();
    const result = await t.client.channels.sandboxInbound({ from, name: 'Maria', text: 'Hi! Can I book a cleaning?', provider_message_id: `p-${from}` });
    assert.ok('conversation' in result);
    assert.equal(result.conversation.customer.phone, from);
    assert.equal(result.conversation.status, 'open');
    assert.equal(result.message.direction, 'inbound');
    assert.equal(result.message.text, 'Hi! Can I book a cleaning?');
    const again = await t.client.channels.sandboxInbound({ from, text: 'Hi! Can I book a cleaning?', provider_message_id: `p-${from}` });
    assert.deepEqual(again, { duplicate: true });
  });

  it('connectWhatsApp connects a number the (fake) Graph API vouches for, and lists it', async () => {
    const id = `7${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}`;
    const connected = await t.client.channels.connectWhatsApp({ phone_number_id: id, display_phone_number: '+1 555 000 1111', access_token: `EAAG-token-${id}`, app_secret: 'app-secret', verify_token: 'verify-token-123' });
    assert.equal(connected.phone_number_id, id);
    assert.equal(connected.webhook_path, '/api/v1/channels/whatsapp/webhook');
    assert.ok(!('access_token' in connected));
    const channels = await t.client.channels.list();
    assert.ok(channels.some((c) => c.channel === 'whatsapp' && 'phone_number_id' in c && c.phone_number_id === id));
    await assert.rejects(
      t.client.channels.connectWhatsApp({ phone_number_id: '123456', access_token: 'EAAG-wrong', app_secret: 'x', verify_token: 'verify-token-123' }),
      (e: unknown) => e instanceof ValidationError && e.code === 'whatsapp_credentials_invalid',
    );
  });
});

describe('conversations and messages', () => {
  let conversation: Conversation;

  it('create opens a conversation with a first message', async () => {
    const created = await t.client.conversations.create({ channel: 'sandbox', customer: { phone: phone(), name: 'Olga' }, tags: ['VIP'], priority: 'high', message: { text: 'Welcome!' } });
    assert.match(created.id, /^conv_/);
    assert.deepEqual(created.tags, ['vip']);
    assert.equal(created.priority, 'high');
    assert.equal(created.version, 1);
    assert.equal(created.messages.length, 1);
    assert.equal(created.messages[0]?.text, 'Welcome!');
    conversation = created;
  });

  it('get returns it with its newest messages', async () => {
    const got = await t.client.conversations.get(conversation.id);
    assert.equal(got.id, conversation.id);
    assert.equal(got.messages_has_more, false);
    assert.equal(got.messages[0]?.text, 'Welcome!');
  });

  it('a second open conversation with the same customer is a ConflictError', async () => {
    await assert.rejects(
      t.client.conversations.create({ channel: 'sandbox', customer: { id: conversation.customer.id } }),
      (e: unknown) => e instanceof ConflictError && e.code === 'conversation_exists' && e.status === 409 && typeof e.requestId === 'string',
    );
  });

  it('update honours If-Match from the fetched version', async () => {
    const current = await t.client.conversations.get(conversation.id);
    const updated = await t.client.conversations.update(conversation.id, { status: 'pending', tags: ['vip', 'follow-up'] }, { ifMatch: current.version });
    assert.equal(updated.status, 'pending');
    assert.equal(updated.version, current.version + 1);
    // The copy read before is stale now.
    await assert.rejects(
      t.client.conversations.update(conversation.id, { priority: 'low' }, { ifMatch: current.version }),
      (e: unknown) => e instanceof PreconditionFailedError && e.code === 'version_mismatch',
    );
    const unconditional = await t.client.conversations.update(conversation.id, { priority: 'low' });
    assert.equal(unconditional.priority, 'low');
  });

  it('an invalid change is a ValidationError naming the field', async () => {
    await assert.rejects(t.client.conversations.update(conversation.id, { status: 'snoozed', snoozed_until: new Date('2000-01-01T00:00:00Z') }), (e: unknown) => e instanceof ValidationError && e.status === 422 && e.errors.some((f) => f.path === 'snoozed_until'));
    await assert.rejects(
      t.client.conversations.create({ channel: 'sandbox', customer: { phone: 'nope' } } as never),
      (e: unknown) => e instanceof ValidationError && e.errors.some((f) => f.path.startsWith('customer')),
    );
  });

  it('messages.send queues a reply and receipts move it to read; messages.list pages through them', async () => {
    const sent = await t.client.conversations.messages.send(conversation.id, { text: 'Of course! Tuesday 10:00 works.' });
    assert.equal(sent.status, 'queued');
    assert.equal(sent.direction, 'outbound');
    const read = await eventually(
      async () => (await t.client.conversations.messages.list(conversation.id, { limit: 1 }).page()).data[0],
      (m) => m?.id === sent.id && m.status === 'read',
    );
    assert.ok(read?.read_at);
    const all = await t.client.conversations.messages.list(conversation.id).toArray();
    assert.deepEqual(all.map((m) => m.text), ['Of course! Tuesday 10:00 works.', 'Welcome!']);
  });

  it('list filters by status', async () => {
    const pending = await t.client.conversations.list({ status: 'pending' }).toArray();
    assert.ok(pending.some((c) => c.id === conversation.id));
    assert.ok(pending.every((c) => c.status === 'pending'));
    const resolved = await t.client.conversations.list({ status: 'resolved' }).toArray();
    assert.ok(!resolved.some((c) => c.id === conversation.id));
  });

  it('get of an unknown id is a NotFoundError', async () => {
    await assert.rejects(t.client.conversations.get('conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W'), NotFoundError);
  });
});

describe('notes', () => {
  it('notes.create and notes.list: the team\u2019s notes, newest first; an unknown conversation is NotFoundError', async () => {
    const result = await t.client.channels.sandboxInbound({ from: phone(), text: 'Hello' });
    assert.ok('conversation' in result);
    const id = result.conversation.id;
    const first = await t.client.conversations.notes.create(id, { text: 'VIP: be quick' });
    assert.equal(first.author.type, 'api_key');
    assert.equal(first.edited_at, null);
    const edited = await t.client.conversations.notes.update(id, first.id, { text: 'VIP: be very quick' }, { ifMatch: first.version });
    assert.deepEqual([edited.text, edited.created_at, typeof edited.edited_at, edited.version], ['VIP: be very quick', first.created_at, 'string', 2]);
    // An edit made on the version before is refused: someone changed the note meanwhile.
    await assert.rejects(t.client.conversations.notes.update(id, first.id, { text: 'stale' }, { ifMatch: first.version }), PreconditionFailedError);
    await assert.rejects(t.client.conversations.notes.delete(id, first.id, { ifMatch: first.version }), PreconditionFailedError);
    const second = await t.client.conversations.notes.create(id, { text: 'Called back' });
    const notes = await t.client.conversations.notes.list(id).toArray();
    assert.deepEqual(notes.map((n) => n.id), [second.id, first.id]);
    await t.client.conversations.notes.delete(id, second.id);
    assert.deepEqual((await t.client.conversations.notes.list(id).toArray()).map((n) => n.id), [first.id]);
    await assert.rejects(t.client.conversations.notes.create('conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W', { text: 'x' }), NotFoundError);
  });
});

describe('saved replies', () => {
  it('create, list (A to Z, by shortcut prefix), get, update, render for a conversation, delete', async () => {
    const hours = await t.client.savedReplies.create({ shortcut: 'sdk-hours', title: 'Opening hours', text: 'Hi {{customer.first_name | there}}, we open at 9.' });
    assert.deepEqual([hours.shortcut, hours.version, hours.created_by.type], ['sdk-hours', 1, 'api_key']);
    const address = await t.client.savedReplies.create({ shortcut: 'sdk-address', title: 'Address', text: 'Hauptstraße 1.' });
    const listed = await t.client.savedReplies.list({ shortcut: 'sdk-' }).toArray();
    assert.deepEqual(listed.map((r) => r.shortcut), ['sdk-address', 'sdk-hours']);
    assert.deepEqual(await t.client.savedReplies.get(address.id), address);
    await assert.rejects(
      t.client.savedReplies.create({ shortcut: 'sdk-hours', title: 'Again', text: 'x' }),
      (e: unknown) => e instanceof ConflictError && e.code === 'shortcut_taken',
    );
    const changed = await t.client.savedReplies.update(hours.id, { title: 'Hours' }, { ifMatch: hours.version });
    assert.deepEqual([changed.title, changed.version], ['Hours', 2]);
    await assert.rejects(t.client.savedReplies.update(hours.id, { title: 'Stale' }, { ifMatch: 1 }), PreconditionFailedError);

    const result = await t.client.channels.sandboxInbound({ from: phone(), name: 'Maria Lopez', text: 'When do you open?' });
    assert.ok('conversation' in result);
    const rendered = await t.client.savedReplies.render(hours.id, { conversation_id: result.conversation.id });
    assert.deepEqual(rendered, { text: 'Hi Maria, we open at 9.', missing: [] });

    await t.client.savedReplies.delete(address.id);
    await assert.rejects(t.client.savedReplies.get(address.id), NotFoundError);
  });
});

describe('customers', () => {
  it('list (newest first), get, findByPhone; an unknown id is NotFoundError', async () => {
    const numbers = [phone(), phone()];
    const ids: string[] = [];
    for (const [i, from] of numbers.entries()) {
      const result = await t.client.channels.sandboxInbound({ from, name: `Customer ${i}`, text: 'Hello' });
      assert.ok('conversation' in result);
      ids.push(result.conversation.customer.id);
    }
    const newest = await t.client.customers.list({ limit: 2 }).page();
    assert.deepEqual(newest.data.map((c) => c.id), [ids[1], ids[0]]);
    const got = await t.client.customers.get(ids[0] ?? '');
    assert.deepEqual({ name: got.name, phone: got.phone, tenant_id: got.tenant_id }, { name: 'Customer 0', phone: numbers[0], tenant_id: t.tenantId });
    assert.deepEqual(await t.client.customers.findByPhone(numbers[0] ?? ''), got);
    assert.equal(await t.client.customers.findByPhone('+491519999999'), null);
    // A missing number is refused before any request (it would list everyone).
    for (const missing of ['', ' ', undefined]) await assert.rejects(t.client.customers.findByPhone(missing as string), /needs a phone number/);
    await assert.rejects(t.client.customers.get('cus_01M8097VP4N21KKVHA4G7BR51Q'), NotFoundError);
  });

  it("a user's unresolved conversations: list({ assignee_id })", async () => {
    const result = await t.client.channels.sandboxInbound({ from: phone(), text: 'Hello' });
    assert.ok('conversation' in result);
    await t.client.conversations.update(result.conversation.id, { assignee_id: t.adminUserId });
    const mine = await t.client.conversations.list({ assignee_id: t.adminUserId }).toArray();
    assert.ok(mine.some((c) => c.id === result.conversation.id));
    await t.client.conversations.update(result.conversation.id, { status: 'resolved' });
    const after = await t.client.conversations.list({ assignee_id: t.adminUserId }).toArray();
    assert.ok(!after.some((c) => c.id === result.conversation.id));
  });

  it("list({ name }) finds customers by the start of their name, A to Z; list({ assignee_id: 'none' }) the unassigned", async () => {
    const unique = `Zed${phone().slice(-7)}`;
    const ids: string[] = [];
    for (const surname of ['Ölmez', 'Adams']) {
      const result = await t.client.channels.sandboxInbound({ from: phone(), name: `${unique} ${surname}`, text: 'Hello' });
      assert.ok('conversation' in result);
      ids.push(result.conversation.customer.id);
    }
    const found = await t.client.customers.list({ name: unique.toLowerCase() }).toArray();
    assert.deepEqual(found.map((c) => c.id), [ids[1], ids[0]]);
    const unassigned = await t.client.conversations.list({ assignee_id: 'none', customer_id: ids[0] ?? '' }).toArray();
    assert.equal(unassigned.length, 1);
  });

  it('update renames the customer everywhere; a stale ifMatch is PreconditionFailedError', async () => {
    const result = await t.client.channels.sandboxInbound({ from: phone(), name: 'Ada', text: 'Hello' });
    assert.ok('conversation' in result);
    const customer = await t.client.customers.get(result.conversation.customer.id);
    const renamed = await t.client.customers.update(customer.id, { name: 'Ada Lovelace' }, { ifMatch: customer.version });
    assert.deepEqual([renamed.name, renamed.version], ['Ada Lovelace', customer.version + 1]);
    assert.equal((await t.client.conversations.get(result.conversation.id)).customer.name, 'Ada Lovelace');
    await assert.rejects(t.client.customers.update(customer.id, { name: null }, { ifMatch: customer.version }), PreconditionFailedError);
    assert.equal((await t.client.customers.update(customer.id, { name: null })).name, null);
  });
});

describe('bookings', () => {
  const day = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
  let customerId: string;

  before(async () => {
    const result = await t.client.channels.sandboxInbound({ from: phone(), name: 'Bea', text: 'I want to book' });
    assert.ok('conversation' in result);
    customerId = result.conversation.customer.id;
  });

  it('create, conflict, get, reschedule with If-Match, list, cancel', async () => {
    const booking = await t.client.bookings.create({ customer: { id: customerId }, service: 'Dental cleaning', resource_id: 'chair-1', start_at: `${day}T10:00:00+01:00`, end_at: `${day}T10:45:00+01:00`, timezone: 'Europe/Berlin', metadata: { source: 'sdk' } });
    assert.equal(booking.status, 'confirmed');
    assert.equal(booking.start_at, `${day}T09:00:00.000Z`);

    await assert.rejects(
      t.client.bookings.create({ customer: { id: customerId }, service: 'Check-up', resource_id: 'chair-1', start_at: `${day}T10:30:00+01:00`, end_at: `${day}T11:00:00+01:00`, timezone: 'Europe/Berlin' }),
      (e: unknown) =>
        e instanceof ConflictError &&
        e.code === 'booking_conflict' &&
        // The problem names the booking in the way.
        e.problem.conflicting_booking?.id === booking.id &&
        e.problem.conflicting_booking.start_at === booking.start_at,
    );

    const got = await t.client.bookings.get(booking.id);
    assert.deepEqual(got, booking);

    // The chair's day: busy while booked, and hour-long slots around it (Dates or strings, minutes as numbers).
    const free = await t.client.bookings.availability({ resource_id: 'chair-1', from: new Date(`${day}T08:00:00Z`), to: `${day}T12:00:00Z`, duration_minutes: 60 });
    assert.deepEqual(free.busy, [{ start_at: booking.start_at, end_at: booking.end_at }]);
    assert.deepEqual(free.slots?.map((s) => s.start_at), [`${day}T08:00:00.000Z`, `${day}T10:00:00.000Z`, `${day}T11:00:00.000Z`]);
    const moving = await t.client.bookings.availability({ resource_id: 'chair-1', from: `${day}T08:00:00Z`, to: `${day}T12:00:00Z`, reschedule_booking_id: booking.id });
    assert.deepEqual([moving.busy, moving.slots], [[], null]);

    // Instants may be Dates: they are sent as ISO 8601.
    const moved = await t.client.bookings.update(booking.id, { start_at: new Date(`${day}T14:00:00+01:00`), end_at: new Date(`${day}T14:45:00+01:00`) }, { ifMatch: got.version });
    assert.equal(moved.rescheduled_from?.start_at, `${day}T09:00:00.000Z`);
    assert.equal(moved.start_at, `${day}T13:00:00.000Z`);
    assert.equal(moved.version, 2);
    await assert.rejects(t.client.bookings.update(booking.id, { notes: 'x' }, { ifMatch: got.version }), PreconditionFailedError);

    const listed = await t.client.bookings.list({ customer_id: customerId }).toArray();
    assert.deepEqual(listed.map((b) => b.id), [booking.id]);
    const from = await t.client.bookings.list({ from: new Date(`${day}T00:00:00Z`), to: new Date(`${day}T23:59:59Z`) }).toArray();
    assert.ok(from.some((b) => b.id === booking.id));

    const cancelled = await t.client.bookings.cancel(booking.id, { reason: 'Customer called to cancel' }, { ifMatch: moved.version });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancellation?.reason, 'Customer called to cancel');
    const again = await t.client.bookings.cancel(booking.id);
    assert.equal(again.status, 'cancelled');
  });

  it('notify tells the customer in the booking\u2019s conversation, in the language asked for', async () => {
    const opened = await t.client.channels.sandboxInbound({ from: phone(), name: 'Lena Weber', text: 'Termin?' });
    assert.ok('conversation' in opened);
    const booking = await t.client.bookings.create({ customer: { id: opened.conversation.customer.id }, conversation_id: opened.conversation.id, service: 'Haarschnitt', start_at: '2031-03-04T15:00:00+01:00', end_at: '2031-03-04T15:30:00+01:00', timezone: 'Europe/Berlin' });
    const message = await t.client.bookings.notify(booking.id, { language: 'de' });
    assert.equal(message.conversation_id, opened.conversation.id);
    assert.equal(message.text, 'Hallo Lena, Ihr Termin (Haarschnitt) am Dienstag, 4. März um 15:00 Uhr ist bestätigt. Wir freuen uns auf Sie!');
    // Without a conversation of its own, it goes to the customer's; a customer with none is refused.
    const unlinked = await t.client.bookings.create({ customer: { id: opened.conversation.customer.id }, service: 'Haarschnitt', start_at: '2031-03-05T15:00:00+01:00', end_at: '2031-03-05T15:30:00+01:00', timezone: 'Europe/Berlin' });
    assert.equal((await t.client.bookings.notify(unlinked.id)).conversation_id, opened.conversation.id);
    const lone = await t.client.bookings.create({ customer: { phone: phone() }, service: 'Check-up', start_at: '2031-03-04T15:00:00+01:00', end_at: '2031-03-04T15:30:00+01:00', timezone: 'Europe/Berlin' });
    await assert.rejects(t.client.bookings.notify(lone.id), (e: unknown) => e instanceof ValidationError && e.code === 'booking_without_conversation');
  });
});

describe('schedules (opening hours)', () => {
  // Monday 3 March 2031; Berlin is on +01:00 until the 30th. A `:` in the id shows it is escaped in paths.
  const prefix = `sdk:${randomUUID().slice(0, 8)}`;
  const room = `${prefix}-b`;
  const nineToFive = [{ start: '09:00', end: '17:00' }];
  let customerId: string;

  before(async () => {
    const result = await t.client.channels.sandboxInbound({ from: phone(), name: 'Otto', text: 'Can I book the room?' });
    assert.ok('conversation' in result);
    customerId = result.conversation.customer.id;
  });

  const book = (start: string, end: string) =>
    t.client.bookings.create({ customer: { id: customerId }, service: 'Consultation', resource_id: room, start_at: `2031-03-${start}+01:00`, end_at: `2031-03-${end}+01:00`, timezone: 'Europe/Berlin' });

  it('create (every weekday in the answer), get, list A to Z, update with ifMatch, delete with ifMatch', async () => {
    await assert.rejects(t.client.schedules.get(room), NotFoundError);
    const schedule = await t.client.schedules.create({
      resource_id: room,
      timezone: 'Europe/Berlin',
      weekly_hours: { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive },
      date_overrides: [{ date: '2031-03-04', hours: [] }],
    });
    assert.deepEqual(
      { resource_id: schedule.resource_id, tenant_id: schedule.tenant_id, timezone: schedule.timezone, version: schedule.version },
      { resource_id: room, tenant_id: t.tenantId, timezone: 'Europe/Berlin', version: 1 },
    );
    assert.deepEqual(schedule.weekly_hours, { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive, sat: [], sun: [] });
    assert.deepEqual(schedule.date_overrides, [{ date: '2031-03-04', hours: [] }]);
    await assert.rejects(
      t.client.schedules.create({ resource_id: room, timezone: 'Europe/Berlin', weekly_hours: {} }),
      (e: unknown) => e instanceof ConflictError && e.code === 'schedule_exists',
    );
    assert.deepEqual(await t.client.schedules.get(room), schedule);

    const other = await t.client.schedules.create({ resource_id: `${prefix}-a`, timezone: 'Europe/Berlin', weekly_hours: { sat: [{ start: '10:00', end: '14:00' }] } });
    const listed = (await t.client.schedules.list({ limit: 1 }).toArray()).filter((s) => s.resource_id.startsWith(prefix));
    assert.deepEqual(listed.map((s) => s.resource_id), [other.resource_id, room]);
    // Only the weekday sent changes; Monday keeps its hours.
    const changed = await t.client.schedules.update(room, { weekly_hours: { sat: [{ start: '10:00', end: '14:00' }] } }, { ifMatch: schedule.version });
    assert.deepEqual([changed.weekly_hours.sat, changed.weekly_hours.mon, changed.date_overrides, changed.version], [[{ start: '10:00', end: '14:00' }], nineToFive, schedule.date_overrides, 2]);
    await assert.rejects(t.client.schedules.update(room, { timezone: 'Europe/London' }, { ifMatch: schedule.version }), PreconditionFailedError);
    assert.equal((await t.client.schedules.get(room)).timezone, 'Europe/Berlin');

    await assert.rejects(t.client.schedules.delete(other.resource_id, { ifMatch: other.version + 1 }), PreconditionFailedError);
    await t.client.schedules.delete(other.resource_id, { ifMatch: other.version });
    await assert.rejects(t.client.schedules.get(other.resource_id), NotFoundError);
  });

  it('buffers keep the resource free around the bookings made under them', async () => {
    const chair = `${prefix}-buffered`;
    const schedule = await t.client.schedules.create({ resource_id: chair, timezone: 'Europe/Berlin', weekly_hours: { mon: nineToFive }, buffer_before_minutes: 10 });
    assert.deepEqual([schedule.buffer_before_minutes, schedule.buffer_after_minutes], [10, 0]);
    const at = (clock: string) => `2031-03-03T${clock}:00+01:00`;
    const first = await t.client.bookings.create({ customer: { id: customerId }, service: 'Consultation', resource_id: chair, start_at: at('10:00'), end_at: at('10:30'), timezone: 'Europe/Berlin' });
    assert.equal(first.buffer_before_minutes, 10);
    await assert.rejects(
      t.client.bookings.create({ customer: { id: customerId }, service: 'Consultation', resource_id: chair, start_at: at('09:30'), end_at: at('09:55'), timezone: 'Europe/Berlin' }),
      (e: unknown) => e instanceof ConflictError && e.code === 'booking_conflict',
    );
    const day = await t.client.bookings.availability({ resource_id: chair, from: at('09:00'), to: at('11:00'), duration_minutes: 30, step_minutes: 10 });
    assert.deepEqual(day.busy, [{ start_at: '2031-03-03T09:00:00.000Z', end_at: '2031-03-03T09:30:00.000Z' }]);
    assert.deepEqual(day.held, [{ start_at: '2031-03-03T08:50:00.000Z', end_at: '2031-03-03T09:30:00.000Z' }]);
    // A slot before it ends by its 10 minutes (09:50); after it, one would need 10 minutes of its own.
    assert.deepEqual(day.slots?.map((s) => s.start_at), ['2031-03-03T08:00:00.000Z', '2031-03-03T08:10:00.000Z', '2031-03-03T08:20:00.000Z']);
    const changed = await t.client.schedules.update(chair, { buffer_before_minutes: 0 }, { ifMatch: schedule.version });
    assert.equal(changed.buffer_before_minutes, 0);
    assert.equal((await t.client.bookings.get(first.id)).buffer_before_minutes, 10);
  });

  it('a booking outside the hours is a ValidationError (outside_opening_hours); availability shows the closed time', async () => {
    await assert.rejects(book('03T17:30:00', '03T18:00:00'), (e: unknown) => e instanceof ValidationError && e.code === 'outside_opening_hours' && e.errors.some((f) => f.path === 'start_at'));
    await assert.rejects(book('04T10:00:00', '04T10:30:00'), (e: unknown) => e instanceof ValidationError && e.code === 'outside_opening_hours'); // the closed date
    const booking = await book('03T10:00:00', '03T10:45:00');

    // 08:00 to 19:00 in Berlin: closed before 09:00 and from 17:00; free and slots only in between.
    const day = await t.client.bookings.availability({ resource_id: room, from: '2031-03-03T08:00:00+01:00', to: '2031-03-03T19:00:00+01:00', duration_minutes: 60 });
    assert.deepEqual(day.closed, [
      { start_at: '2031-03-03T07:00:00.000Z', end_at: '2031-03-03T08:00:00.000Z' },
      { start_at: '2031-03-03T16:00:00.000Z', end_at: '2031-03-03T18:00:00.000Z' },
    ]);
    assert.deepEqual(day.busy, [{ start_at: booking.start_at, end_at: booking.end_at }]);
    assert.deepEqual(day.free, [
      { start_at: '2031-03-03T08:00:00.000Z', end_at: booking.start_at },
      { start_at: booking.end_at, end_at: '2031-03-03T16:00:00.000Z' },
    ]);
    assert.deepEqual(day.slots?.map((s) => s.start_at.slice(11, 16)), ['08:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);

    // Without a schedule the resource is open at all times again.
    await t.client.schedules.delete(room);
    const open = await t.client.bookings.availability({ resource_id: room, from: '2031-03-03T08:00:00+01:00', to: '2031-03-03T19:00:00+01:00' });
    assert.deepEqual(open.closed, []);
    assert.equal((await book('03T17:30:00', '03T18:00:00')).status, 'confirmed');
  });
});

describe('AI functions', () => {
  it('analyze, suggest and categorize', async () => {
    const analysis = await t.client.ai.analyze({ text: 'I was charged twice for my massage tomorrow at 3pm!! Refund the €45 to jo@example.com' });
    assert.equal(analysis.intent.name, 'payment_issue');
    assert.equal(analysis.sentiment.label, 'negative');
    assert.ok(analysis.entities.some((e) => e.type === 'email' && e.value === 'jo@example.com'));
    assert.equal(analysis.provider, 'local');

    const inbound = await t.client.channels.sandboxInbound({ from: phone(), name: 'Maria Lopez', text: 'This is ridiculous, I want to talk to a real person' });
    assert.ok('conversation' in inbound);
    const suggestions = await t.client.ai.suggest({ conversation_id: inbound.conversation.id, count: 2 });
    assert.ok(suggestions.suggestions.length >= 1);
    assert.equal(suggestions.grounding.customer_name, 'Maria Lopez');

    const categorized = await t.client.ai.categorize({ conversation_id: inbound.conversation.id, apply: true });
    assert.equal(categorized.category.name, 'support');
    assert.equal(categorized.applied, true);
  });
});

describe('events', () => {
  it('list filters by type and time, newest first, and types narrow by `type`', async () => {
    const since = new Date(Date.now() - 3600_000);
    const events = await t.client.events.list({ type: 'conversation.*', since, until: new Date() }).toArray();
    assert.ok(events.length > 0);
    assert.ok(events.every((e) => e.type.startsWith('conversation.')));
    const ids = events.map((e) => e.id);
    assert.deepEqual(ids, [...ids].sort().reverse());
    const created = events.find((e): e is EventOf<'conversation.created'> => e.type === 'conversation.created');
    assert.match(created?.data.conversation.id ?? '', /^conv_/);
    // One event by id, as listed; an unknown id is NotFoundError.
    assert.deepEqual(await t.client.events.get(events[0]!.id), events[0]);
    await assert.rejects(t.client.events.get('evt_01JDQ8ZK3M4N5P6Q7R8S9T0V1W'), NotFoundError);
  });
});
