import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { decodeTime } from 'ulid';
import { eventsFromItem } from '../../functions/events/store';
import { db } from '../../functions/platform/db';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, eventsOf, eventually, idsOf, settlesTo, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();

let t: TestTenant;
let conversationId: string;
beforeAll(async () => {
  t = await createTenant();
  const inbound = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(t),
    body: { from: '+491514000001', text: 'hello' },
  });
  conversationId = inbound.body.conversation.id;
  await call('PATCH', `/conversations/${conversationId}`, { ...authOf(t), body: { status: 'pending', tags: ['vip'] } });
  await call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { phone: '+491514000001' },
      service: 'Consult',
      start_at: '2031-02-01T09:00:00Z',
      end_at: '2031-02-01T09:30:00Z',
      timezone: 'UTC',
    },
  });
  // The list is eventually consistent: wait for the four events before the tests read it.
  await eventsOf(t, '*', (events) => events.length >= 4);
});

describe('GET /events/{id}', () => {
  it('reads one event as listed, and 404s unknown, malformed and other tenants\u2019 ids', async () => {
    const [latest] = await eventsOf(t);
    const got = await call('GET', `/events/${latest.id}`, authOf(t));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(latest);
    const other = await createTenant();
    for (const [id, who] of [
      [latest.id, other],
      ['evt_01ARZ3NDEKTSV4RRFFQ69G5FAV', t],
      ['nope', t],
      [conversationId, t],
    ] as const) {
      const res = await call('GET', `/events/${id}`, authOf(who));
      expect([id, res.status, res.headers.get('content-type'), res.body.code]).toEqual([
        id,
        404,
        'application/problem+json',
        'not_found',
      ]);
    }
  });
});

describe('GET /events', () => {
  it('records exactly one event per change, with the envelope and data.changes', async () => {
    const events = await eventsOf(t);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'conversation.updated',
      'conversation.message.received',
      'conversation.created',
    ]);
    for (const e of events) {
      expect(e).toMatchObject({ tenant_id: t.tenantId, api_version: 'v1' });
      expect(e.id).toMatch(/^evt_/);
      expect(Date.parse(e.created_at)).toBeGreaterThan(0);
    }
    const updated = events.find((e) => e.type === 'conversation.updated');
    expect(updated.data.changes).toEqual({ status: { from: 'open', to: 'pending' }, tags: { from: [], to: ['vip'] } });
    expect(updated.data.conversation.id).toBe(conversationId);
  });

  it('filters by exact type and by pattern', async () => {
    expect((await eventsOf(t, 'booking.*')).map((e) => e.type)).toEqual(['booking.created']);
    expect((await eventsOf(t, 'conversation.*')).map((e) => e.type).sort()).toEqual([
      'conversation.created',
      'conversation.message.received',
      'conversation.updated',
    ]);
    expect(await eventsOf(t, 'conversation.updated')).toHaveLength(1);
    expect(await eventsOf(t, 'payment.*')).toEqual([]);
    const bad = await call('GET', '/events?type=conversation.deleted', authOf(t));
    expect(bad.status).toBe(400);
  });

  it('pages conversation.* exactly past a run of other events', async () => {
    // conversation.* reads all events and skips the others: a page read on past five booking events.
    const u = await createTenant();
    await call('POST', '/channels/sandbox/inbound', { ...authOf(u), body: { from: '+491514000002', text: 'hi' } });
    for (let h = 0; h < 5; h++)
      await call('POST', '/bookings', {
        ...authOf(u),
        body: {
          customer: { phone: '+491514000002' },
          service: 'Consult',
          start_at: `2031-03-01T0${h}:00:00Z`,
          end_at: `2031-03-01T0${h}:30:00Z`,
          timezone: 'UTC',
        },
      });
    await eventsOf(u, '*', (events) => events.length >= 7);
    type EventPage = { data: { type: string }[]; pagination: { has_more: boolean; next_cursor: string | null } };
    const pages: EventPage[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: EventPage } = await call(
        'GET',
        `/events?type=conversation.*&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        authOf(u),
      );
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body.pagination.next_cursor;
    } while (cursor && pages.length < 5);
    expect(pages.map((p) => p.data.map((e) => e.type))).toEqual([
      ['conversation.message.received'],
      ['conversation.created'],
    ]);
    expect(pages.map((p) => p.pagination.has_more)).toEqual([true, false]);
    expect((await eventsOf(u, 'booking.*')).map((e) => e.type)).toEqual(Array(5).fill('booking.created'));
  });

  it('filters by time and pages newest first', async () => {
    const all = await eventsOf(t);
    const future = await call(
      'GET',
      `/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      authOf(t),
    );
    expect(future.body.data).toEqual([]);
    const past = await call(
      'GET',
      `/events?until=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
      authOf(t),
    );
    expect(past.body.data).toEqual([]);
    const window = await call(
      'GET',
      `/events?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&until=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`,
      authOf(t),
    );
    expect(window.body.data).toHaveLength(all.length);
    const first = await call('GET', '/events?limit=3', authOf(t));
    const second = await call(
      'GET',
      `/events?limit=3&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
      authOf(t),
    );
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(all.map((e) => e.id));
    expect((await call('GET', '/events?since=2031-01-01T00:00:00Z&until=2030-01-01T00:00:00Z', authOf(t))).status).toBe(
      400,
    );
    // A cursor resumes only the query that issued it.
    const reused = await call(
      'GET',
      `/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
      authOf(t),
    );
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('invalid_cursor');
  });

  it('shows a tenant only its own events', async () => {
    const other = await createTenant();
    expect(await eventsOf(other)).toEqual([]);
  });
});

describe('events of one change, stored together', () => {
  it("list, page, filter and read the sandbox send's three events one by one, though they share one item", async () => {
    const u = await createTenant();
    const { body } = await call('POST', '/channels/sandbox/inbound', {
      ...authOf(u),
      body: { from: '+491514000003', text: 'hi' },
    });
    const sent = await call('POST', `/conversations/${body.conversation.id}/messages`, {
      ...authOf(u),
      body: { text: 'On our way' },
    });
    const statusEvents = await eventually(
      async () => (await eventsOf(u, 'conversation.*')).filter((e) => e.data.message?.id === sent.body.id),
      (found) => found.length >= 3,
    );
    // Newest first, in the order the send made them.
    expect(statusEvents.map((e) => e.type)).toEqual([
      'conversation.message.read',
      'conversation.message.delivered',
      'conversation.message.sent',
    ]);
    const ids = statusEvents.map((e) => e.id as string);
    expect([...ids].sort().reverse()).toEqual(ids);
    // As stored: one item, keyed by the first event's id (the send made their ids in one millisecond).
    const stored = await db().send(
      new QueryCommand({
        TableName: `local-${TABLES.main.id}`,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :evt)',
        ExpressionAttributeValues: { ':pk': `TENANT#${u.tenantId}`, ':evt': 'EVT#' },
        ConsistentRead: true,
      }),
    );
    const holding = (stored.Items ?? []).filter((item) => eventsFromItem(item).some((e) => ids.includes(e.id)));
    expect(holding.map((item) => item.sk)).toEqual([`EVT#${ids[2]}`]);
    // Every page size walks the same sequence, splitting the item where a page ends. The list reads
    // eventually consistent, as DynamoDB does; `after` reads strongly, so it lists every event committed,
    // and each walk is read until it shows them.
    const committed = async (type = '*') =>
      idsOf(
        await call('GET', `/events?limit=100&type=${encodeURIComponent(type)}&after=evt_${'0'.repeat(26)}`, authOf(u)),
      );
    const all = await committed();
    /** The ids `query` lists, page by page, following the cursors (at most one page per event). */
    const walk = async (query: string) => {
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: { id: string }[]; pagination: { next_cursor: string | null } } } = await call(
          'GET',
          `/events?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          authOf(u),
        );
        walked.push(...page.body.data.map((e) => e.id));
        cursor = page.body.pagination.next_cursor;
      } while (cursor && walked.length <= all.length);
      return walked;
    };
    for (const limit of [1, 2]) await settlesTo(() => walk(`limit=${limit}`), all);
    // A filtered list splits the item between pages too.
    for (const type of ['conversation.*', 'conversation.message.delivered']) {
      const ofType = await committed(type);
      await settlesTo(() => walk(`type=${type}&limit=1`), ofType);
      expect(ofType.filter((id) => ids.includes(id))).toEqual(type === 'conversation.*' ? ids : [statusEvents[1].id]);
    }
    // A window of exactly their millisecond holds all three.
    const millisecond = encodeURIComponent(new Date(decodeTime(ids[0]?.slice(4) ?? '')).toISOString());
    const exact = await call('GET', `/events?since=${millisecond}&until=${millisecond}`, authOf(u));
    expect(exact.body.data.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    // Each by its exact type, by id, and in a time window.
    for (const event of statusEvents) {
      const ofType = (await eventsOf(u, event.type)).filter((e) => e.data.message?.id === sent.body.id);
      expect(ofType).toEqual([event]);
      const got = await call('GET', `/events/${event.id}`, authOf(u));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(event);
    }
    const around = (ms: number) =>
      encodeURIComponent(new Date(Date.parse(statusEvents[0].created_at) + ms).toISOString());
    const windowed = await call('GET', `/events?since=${around(-60_000)}&until=${around(60_000)}&limit=100`, authOf(u));
    expect(windowed.body.data.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    // An id in that millisecond that no event has is not found.
    const missing = `${ids[0]?.slice(0, 14)}${'Z'.repeat(16)}`;
    expect((await call('GET', `/events/${missing}`, authOf(u))).status).toBe(404);
  });
});
