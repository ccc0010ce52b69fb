import { createHash } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES } from '../../catalog/resources';
import { REALTIME_LIMITS } from '../../catalog/realtime';
import { eventPut, newEvent } from '../../functions/events/store';
import { db } from '../../functions/platform/db';
import { authOf, call, createTenant, login, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { eventsWithin, openSocket, refusal, type TestSocket } from '../support/realtime';
import { testRuntime } from '../support/runtime';

useRuntimeAws();

let t: TestTenant;
const open: TestSocket[] = [];
beforeAll(async () => {
  t = await createTenant();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const ticket = async (tenant: TestTenant, body: Record<string, unknown> = {}, token = tenant.apiKey) => {
  const res = await call('POST', '/realtime/tickets', { tenant: tenant.tenantId, token, body });
  expect(res.status).toBe(201);
  return res.body as { ticket: string; url: string; expires_at: string };
};
const connect = async (url: string) => {
  const s = await openSocket(url);
  open.push(s);
  return s;
};
let phone = 4915140000000;
/** A customer's message through the sandbox channel: a conversation.message.received event (and created). */
const inbound = async (tenant: TestTenant, text: string, from = `+${++phone}`) => {
  const res = await call('POST', '/channels/sandbox/inbound', { ...authOf(tenant), body: { from, text } });
  expect(res.status).toBeLessThan(300);
  return { ...(res.body as { conversation: { id: string }; message: { id: string } }), from };
};
const isEvent = (type: string, text?: string) => (m: any) =>
  m.type === type && (text === undefined || m.data?.message?.text === text);

describe('POST /realtime/tickets', () => {
  it('issues a short-lived ticket whose URL points at the local WebSocket server', async () => {
    const before = Date.now();
    const issued = await ticket(t, { types: ['conversation.*'] });
    expect(issued.ticket).toMatch(/^rtt_[A-Za-z0-9_-]{32}$/);
    const url = new URL(issued.url);
    expect(`${url.protocol}//${url.host}`).toBe(testRuntime().realtimeUrl);
    expect(url.searchParams.get('ticket')).toBe(issued.ticket);
    expect(url.searchParams.get('tenant_id')).toBe(t.tenantId);
    const lifetime = Date.parse(issued.expires_at) - before;
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(REALTIME_LIMITS.ticketSeconds * 1000 + 5_000);
  });

  it('works with a session token of any role, and refuses bad subscriptions and missing credentials', async () => {
    const agent = await call('POST', '/users', {
      ...authOf(t),
      body: { email: `agent-${Date.now()}@example.com`, password: 'correct horse battery staple', role: 'agent' },
    });
    expect(agent.status).toBe(201);
    const session = await login(t, agent.body.email, 'correct horse battery staple');
    await ticket(t, {}, session.access_token);
    for (const body of [{ types: ['nope.*'] }, { conversation_id: 'conv_bad' }, { extra: true }]) {
      const res = await call('POST', '/realtime/tickets', { ...authOf(t), body });
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([
        JSON.stringify(body),
        422,
        'validation_failed',
      ]);
    }
    const anonymous = await call('POST', '/realtime/tickets', { tenant: t.tenantId, body: {} });
    expect(anonymous.status).toBe(401);
  });
});

describe('connecting', () => {
  it('pushes committed events as the same envelopes GET /events serves', async () => {
    const s = await connect((await ticket(t)).url);
    const { conversation } = await inbound(t, 'pushed to me');
    const pushed = await s.next(isEvent('conversation.message.received', 'pushed to me'));
    expect(pushed.data.conversation_id).toBe(conversation.id);
    const stored = await call('GET', `/events/${pushed.id}`, authOf(t));
    expect(pushed).toEqual(stored.body);
  });

  it('refuses a ticket used twice, expired, of another tenant or malformed, and keeps a ticket tried on another tenant', async () => {
    const used = await ticket(t);
    await connect(used.url);
    expect(await refusal(used.url)).toMatchObject({ status: 401, body: { code: 'invalid_ticket' } });

    const other = await createTenant();
    const foreign = await ticket(t);
    const elsewhere = new URL(foreign.url);
    elsewhere.searchParams.set('tenant_id', other.tenantId);
    expect(await refusal(elsewhere.toString())).toMatchObject({ status: 401, body: { code: 'invalid_ticket' } });
    // Presented for the wrong tenant, the ticket was not used up.
    await connect(foreign.url);

    // Expired: the item's expiry moved into the past (TTL deletes lazily; the check is the ticket's own).
    const stale = await ticket(t);
    await db().send(
      new UpdateCommand({
        TableName: `local-${TABLES.realtime.id}`,
        Key: { pk: `TICKET#${createHash('sha256').update(stale.ticket).digest('hex')}`, sk: 'TICKET' },
        UpdateExpression: 'SET expires = :past',
        // A minute ago: well past any skew of the server's clocks (docs/chaos.md).
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    expect(await refusal(stale.url)).toMatchObject({ status: 401, body: { code: 'invalid_ticket' } });

    const base = testRuntime().realtimeUrl;
    expect((await refusal(`${base}/?tenant_id=${t.tenantId}`)).status).toBe(400);
    expect((await refusal(`${base}/?tenant_id=not-a-uuid&ticket=${stale.ticket}`)).status).toBe(400);
  });

  it(`bounds the connections of one key (${REALTIME_LIMITS.connectionsPerPrincipal})`, async () => {
    const tenant = await createTenant();
    for (let i = 0; i < REALTIME_LIMITS.connectionsPerPrincipal; i++) await connect((await ticket(tenant)).url);
    expect(await refusal((await ticket(tenant)).url)).toMatchObject({
      status: 429,
      body: { code: 'too_many_connections' },
    });
    // A closed connection gives its place back.
    await open.shift()?.close();
    await connectOnceFree(tenant);
  });
});

/**
 * A connection once a freed place is seen: $disconnect runs a moment after the close (and a probe that was
 * accepted and closed again would free its place only as late), so a refusal for too many connections is
 * tried again with a new ticket.
 */
async function connectOnceFree(tenant: TestTenant) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect((await ticket(tenant)).url);
    } catch (error) {
      if (attempt > 20 || !/handshake refused: 429/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe('filtering', () => {
  it('delivers by subscription: types, one conversation, and a subscribe message that changes them', async () => {
    const tenant = await createTenant();
    const everything = await connect((await ticket(tenant)).url);
    const first = await inbound(tenant, 'first conversation');
    // The first conversation's own events are pushed before the filtered sockets connect (pushes are
    // asynchronous: a socket opened right after a write may still receive that write's events).
    await everything.next(isEvent('conversation.created'));
    await everything.next(isEvent('conversation.message.received', 'first conversation'));
    const bookingsOnly = await connect((await ticket(tenant, { types: ['booking.*'] })).url);
    const oneConversation = await connect((await ticket(tenant, { conversation_id: first.conversation.id })).url);

    await inbound(tenant, 'another conversation');
    await inbound(tenant, 'in the first one', first.from);
    const booking = await call('POST', '/bookings', {
      ...authOf(tenant),
      body: {
        customer: { phone: '+491514999001' },
        service: 'Consult',
        start_at: '2031-02-01T09:00:00Z',
        end_at: '2031-02-01T09:30:00Z',
        timezone: 'UTC',
      },
    });
    expect(booking.status).toBe(201);
    await everything.next(isEvent('booking.created'));
    await everything.next(isEvent('conversation.message.received', 'in the first one'));
    await everything.next(isEvent('conversation.message.received', 'another conversation'));

    expect((await eventsWithin(bookingsOnly, 500)).map((e) => e.type)).toEqual(['booking.created']);
    const inFirst = await eventsWithin(oneConversation, 0);
    expect(inFirst.map((e) => e.data.message?.text ?? e.type)).toEqual(['in the first one']);

    bookingsOnly.send({ action: 'subscribe', types: ['conversation.message.received'] });
    expect(await bookingsOnly.next((m) => m.type === 'realtime.subscribed')).toEqual({
      type: 'realtime.subscribed',
      types: ['conversation.message.received'],
      conversation_id: null,
    });
    await inbound(tenant, 'after the change');
    await bookingsOnly.next(isEvent('conversation.message.received', 'after the change'));
  });

  it('delivers by role: agents do not receive admin-only types', async () => {
    const tenant = await createTenant();
    const agent = await call('POST', '/users', {
      ...authOf(tenant),
      body: { email: `agent-${Date.now()}@example.com`, password: 'correct horse battery staple', role: 'agent' },
    });
    const agentSession = await login(tenant, agent.body.email, 'correct horse battery staple');
    const adminSession = await login(tenant);
    const asAgent = await connect((await ticket(tenant, {}, agentSession.access_token)).url);
    const asAdmin = await connect((await ticket(tenant, {}, adminSession.access_token)).url);

    // A committed channel event, as the channel sender writes one when Meta refuses a token.
    const channelEvent = newEvent(
      tenant.tenantId,
      'channel.reauthorization_required',
      { channel: { id: 'ch' } },
      new Date(),
    );
    await db().send(new PutCommand(eventPut(channelEvent).Put));
    await inbound(tenant, 'for everyone');

    await asAdmin.next((m) => m.id === channelEvent.id);
    await asAgent.next(isEvent('conversation.message.received', 'for everyone'));
    await asAdmin.next(isEvent('conversation.message.received', 'for everyone'));
    expect(asAgent.messages.some((m) => m.id === channelEvent.id)).toBe(false);
  });

  it('answers ping with pong and a malformed message with an error, keeping the socket', async () => {
    const s = await connect((await ticket(t)).url);
    s.send({ action: 'ping' });
    expect(await s.next((m) => m.type === 'realtime.pong')).toEqual({ type: 'realtime.pong' });
    s.socket.send('not json');
    expect(await s.next((m) => m.type === 'realtime.error')).toMatchObject({ code: 'invalid_json' });
    s.send({ action: 'subscribe', types: ['nope'] });
    expect(await s.next((m) => m.code === 'invalid_message')).toMatchObject({ type: 'realtime.error' });
    s.send({ action: 'ping' });
    await s.next(() => s.messages.filter((m) => m.type === 'realtime.pong').length === 2);
  });
});

describe('resuming after a drop', () => {
  it('GET /events?after= lists exactly the events after the last one seen, so nothing is missed or shown twice', async () => {
    const tenant = await createTenant();
    const s = await connect((await ticket(tenant)).url);
    await inbound(tenant, 'seen live');
    const last = await s.next(isEvent('conversation.message.received', 'seen live'));
    // The server drops the socket (as API Gateway does after 2 hours), through the management API.
    const management = testRuntime().realtimeUrl.replace(/^ws/, 'http');
    const ready = s.messages.find((m) => m.type === 'realtime.ready');
    await fetch(`${management}/@connections/${encodeURIComponent(ready.connection_id)}`, { method: 'DELETE' });
    await s.closed;

    await inbound(tenant, 'while away 1');
    await inbound(tenant, 'while away 2');
    const again = await connect((await ticket(tenant)).url);
    const missed = await call('GET', `/events?after=${last.id}&limit=100`, authOf(tenant));
    expect(missed.status).toBe(200);
    const texts = (missed.body.data as any[])
      .filter((e) => e.type === 'conversation.message.received')
      .map((e) => e.data.message.text)
      .reverse();
    expect(texts).toEqual(['while away 1', 'while away 2']);
    expect((missed.body.data as any[]).some((e) => e.id <= last.id)).toBe(false);
    // And the new socket gets what comes next.
    await inbound(tenant, 'live again');
    await again.next(isEvent('conversation.message.received', 'live again'));
  });

  it('names connections by their URL-encoded id in the management API: an id cut at an unencoded / is not found (404), not gone', async () => {
    const s = await connect((await ticket(t)).url);
    const { connection_id: id } = await s.next((m) => m.type === 'realtime.ready');
    const management = testRuntime().realtimeUrl.replace(/^ws/, 'http');
    // Ids are base64 and may hold a `/`: a caller that does not encode one asks for a path no connection has.
    expect((await fetch(`${management}/@connections/${encodeURIComponent(id)}/extra`, { method: 'GET' })).status).toBe(
      404,
    );
    expect((await fetch(`${management}/@connections/${encodeURIComponent(`${id}x`)}`, { method: 'GET' })).status).toBe(
      410,
    );
    expect((await fetch(`${management}/@connections/${encodeURIComponent(id)}`, { method: 'GET' })).status).toBe(200);
    expect((await fetch(`${management}/@connections/${encodeURIComponent(id)}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await s.closed;
  });

  it('keeps the events of a change that share one stored item when resuming inside it', async () => {
    const tenant = await createTenant();
    const { conversation } = await inbound(tenant, 'hello');
    const sent = await call('POST', `/conversations/${conversation.id}/messages`, {
      ...authOf(tenant),
      body: { text: 'we answer' },
    });
    expect(sent.status).toBe(202);
    // The sandbox's send makes sent, delivered and read in one change, stored as one item.
    const all = await waitForEvents(tenant, (events) => events.some((e) => e.type === 'conversation.message.read'));
    const statuses = all.filter((e) => e.data.message?.id === sent.body.id).reverse();
    expect(statuses.map((e) => e.type)).toEqual([
      'conversation.message.sent',
      'conversation.message.delivered',
      'conversation.message.read',
    ]);
    const after = await call('GET', `/events?after=${statuses[0].id}`, authOf(tenant));
    expect((after.body.data as any[]).map((e) => e.id).reverse()).toEqual(statuses.slice(1).map((e) => e.id));
  });

  it('refuses an `after` that is not an event id', async () => {
    const res = await call('GET', '/events?after=conv_01ARZ3NDEKTSV4RRFFQ69G5FAV', authOf(t));
    expect([res.status, res.body.code]).toEqual([400, 'invalid_query']);
  });
});

async function waitForEvents(tenant: TestTenant, done: (events: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 75; i++) {
    const res = await call('GET', '/events?limit=100', authOf(tenant));
    if (done(res.body.data)) return res.body.data;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('events did not arrive');
}

describe('revoking the credential behind a socket', () => {
  const newAgent = async (tenant: TestTenant) => {
    const res = await call('POST', '/users', {
      ...authOf(tenant),
      body: {
        email: `revoked-${Date.now()}-${++phone}@example.com`,
        password: 'correct horse battery staple',
        role: 'agent',
      },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, session: await login(tenant, res.body.email, 'correct horse battery staple') };
  };

  it('closes the socket of a session that logs out, and only that one', async () => {
    const tenant = await createTenant();
    const agent = await newAgent(tenant);
    const other = await login(
      tenant,
      (await call('GET', `/users/${agent.id}`, authOf(tenant))).body.email,
      'correct horse battery staple',
    );
    const loggedOut = await connect((await ticket(tenant, {}, agent.session.access_token)).url);
    const stays = await connect((await ticket(tenant, {}, other.access_token)).url);
    const res = await call('POST', '/auth/logout', {
      tenant: tenant.tenantId,
      token: agent.session.access_token,
      body: {},
    });
    expect(res.status).toBe(204);
    await loggedOut.closed;
    // The same user's other session keeps its socket, and it still receives events.
    await inbound(tenant, 'after the logout');
    await stays.next(isEvent('conversation.message.received', 'after the logout'));
    expect(loggedOut.messages.some(isEvent('conversation.message.received', 'after the logout'))).toBe(false);
  });

  it('closes every socket of a disabled user', async () => {
    const tenant = await createTenant();
    const agent = await newAgent(tenant);
    const s = await connect((await ticket(tenant, {}, agent.session.access_token)).url);
    const res = await call('PATCH', `/users/${agent.id}`, { ...authOf(tenant), body: { status: 'disabled' } });
    expect(res.status).toBe(200);
    await s.closed;
  });

  it('closes the sockets of a revoked API key, not those of other keys', async () => {
    const tenant = await createTenant();
    const key = await call('POST', '/api-keys', { ...authOf(tenant), body: { name: 'realtime', role: 'agent' } });
    expect(key.status).toBe(201);
    const revoked = await connect((await ticket(tenant, {}, key.body.key)).url);
    const stays = await connect((await ticket(tenant)).url);
    expect((await call('DELETE', `/api-keys/${key.body.id}`, authOf(tenant))).status).toBe(204);
    await revoked.closed;
    await inbound(tenant, 'after the revocation');
    await stays.next(isEvent('conversation.message.received', 'after the revocation'));
  });
});

describe('team notes', () => {
  it('signals a note written, edited and deleted to the sockets that take the conversation, as realtime.note', async () => {
    const tenant = await createTenant();
    const { conversation } = await inbound(tenant, 'a note will follow');
    const all = await connect((await ticket(tenant)).url);
    const thisOne = await connect((await ticket(tenant, { conversation_id: conversation.id })).url);
    const other = await inbound(tenant, 'another conversation');
    const elsewhere = await connect((await ticket(tenant, { conversation_id: other.conversation.id })).url);
    const bookingsOnly = await connect((await ticket(tenant, { types: ['booking.*'] })).url);
    const created = await call('POST', `/conversations/${conversation.id}/notes`, {
      ...authOf(tenant),
      body: { text: 'VIP: offer the window seat' },
    });
    expect(created.status).toBe(201);
    const signal = (change: string) => (m: any) =>
      m.type === 'realtime.note' && m.note_id === created.body.id && m.change === change;
    expect(await all.next(signal('created'))).toEqual({
      type: 'realtime.note',
      conversation_id: conversation.id,
      note_id: created.body.id,
      change: 'created',
    });
    await thisOne.next(signal('created'));
    // A signal, not an event: nothing in GET /events names the note.
    const events = await call('GET', '/events?limit=100', authOf(tenant));
    expect(JSON.stringify(events.body.data)).not.toContain(created.body.id);
    // The note's author edits it; the socket hears of it, then of its deletion.
    const edited = await call('PATCH', `/conversations/${conversation.id}/notes/${created.body.id}`, {
      ...authOf(tenant),
      body: { text: 'VIP: offer the window seat and tea' },
    });
    expect(edited.status).toBe(200);
    await all.next(signal('updated'));
    const deleted = await call('DELETE', `/conversations/${conversation.id}/notes/${created.body.id}`, authOf(tenant));
    expect(deleted.status).toBe(204);
    await all.next(signal('deleted'));
    await thisOne.next(signal('deleted'));
    expect(elsewhere.messages.some((m) => m.type === 'realtime.note')).toBe(false);
    expect(bookingsOnly.messages.some((m) => m.type === 'realtime.note')).toBe(false);
  });
});
