import { releaseAssignments } from '../../functions/conversations/service';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getConversation } from '../../functions/conversations/store';
import { db } from '../../functions/platform/db';
import { TABLES } from '../../catalog/resources';
import {
  call,
  createTenant,
  eventually,
  listEventually,
  platform,
  serverClockSkewMs,
  settlesTo,
  type TestTenant,
} from '../support/api';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();
let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const auth = () => ({ tenant: t.tenantId, token: t.apiKey });

describe('API keys', () => {
  it('shows the key once, then only its prefix, name, role and last use', async () => {
    const created = await call('POST', '/api-keys', { ...auth(), body: { name: 'CI deploys', role: 'agent' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    expect(created.body).toMatchObject({ name: 'CI deploys', role: 'agent', last_used_at: null });
    expect(created.body.id).toMatch(/^key_/);
    await call('GET', '/auth/me', { tenant: t.tenantId, token: created.body.key });
    // The list is eventually consistent: wait until it shows the key with its use.
    const list = await listEventually('/api-keys', auth(), (body) =>
      body.data.some((k: { id: string; last_used_at: string | null }) => k.id === created.body.id && k.last_used_at),
    );
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(listed.prefix).toBe(created.body.key.slice(0, 11));
    expect(listed.key).toBeUndefined();
    expect(listed.hash).toBeUndefined();
    // Taken on two invocations' clocks, which chaos sets up to seconds apart (docs/chaos.md).
    const skew = 2 * serverClockSkewMs();
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.parse(created.body.created_at) - 1 - skew);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it('404 when revoking an unknown or malformed id', async () => {
    expect((await call('DELETE', '/api-keys/key_01ARZ3NDEKTSV4RRFFQ69G5FAV', auth())).status).toBe(404);
    expect((await call('DELETE', '/api-keys/whatever', auth())).status).toBe(404);
  });
});

describe('users', () => {
  it('creates, reads, updates with If-Match, and refuses stale versions with 412', async () => {
    const created = await call('POST', '/users', {
      ...auth(),
      body: { email: 'Agent.Smith@Example.com', password: 'agent smith password', name: 'Smith' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: 'agent.smith@example.com',
      role: 'agent',
      status: 'active',
      version: 1,
    });
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body.password_hash).toBeUndefined();
    const id = created.body.id;

    const got = await call('GET', `/users/${id}`, auth());
    expect(got.body.name).toBe('Smith');
    const updated = await call('PATCH', `/users/${id}`, {
      ...auth(),
      headers: { 'If-Match': '"1"' },
      body: { role: 'admin' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ role: 'admin', version: 2 });
    expect(updated.headers.get('etag')).toBe('"2"');
    const stale = await call('PATCH', `/users/${id}`, {
      ...auth(),
      headers: { 'If-Match': '"1"' },
      body: { name: 'Lost update' },
    });
    expect(stale.status).toBe(412);
    expect((await call('GET', `/users/${id}`, auth())).body.name).toBe('Smith');
    expect(
      (
        await call('POST', '/users', {
          ...auth(),
          body: { email: 'agent.smith@example.com', password: 'agent smith password' },
        })
      ).status,
    ).toBe(409);
  });

  it('keeps an admin from demoting themselves', async () => {
    const session = await call('POST', '/auth/login', {
      tenant: t.tenantId,
      body: { email: t.adminEmail, password: t.adminPassword },
    });
    const res = await call('PATCH', `/users/${t.adminUserId}`, {
      tenant: t.tenantId,
      token: session.body.access_token,
      body: { role: 'agent' },
    });
    expect(res.status).toBe(422);
  });
});

describe('disabling a user', () => {
  it("returns their unresolved conversations to the team's queue, each with conversation.updated", async () => {
    const d = await createTenant();
    const as = { tenant: d.tenantId, token: d.apiKey };
    const agent = await call('POST', '/users', {
      ...as,
      body: { email: `leaver-${Date.now()}@example.com`, password: 'a long enough password' },
    });
    const ids: string[] = [];
    for (const from of ['+491511000091', '+491511000092', '+491511000093']) {
      const res = await call('POST', '/channels/sandbox/inbound', { ...as, body: { from, text: 'hi' } });
      ids.push(res.body.conversation.id);
    }
    const [open, pending, resolved] = ids as [string, string, string];
    const patch = (id: string, body: Record<string, unknown>) => call('PATCH', `/conversations/${id}`, { ...as, body });
    for (const id of ids) await patch(id, { assignee_id: agent.body.id });
    await patch(pending, { status: 'pending' });
    await patch(resolved, { status: 'resolved' });

    const disabled = await call('PATCH', `/users/${agent.body.id}`, { ...as, body: { status: 'disabled' } });
    expect(disabled.body).toMatchObject({ status: 'disabled' });
    const assigneeOf = async (id: string) => (await call('GET', `/conversations/${id}`, as)).body.assignee_id;
    // The stream-reactions worker's assignment release does it off the stream, shortly after.
    // A generous bound: the worker shares the table's stream with every other test's writes.
    await eventually(
      async () => [await assigneeOf(open), await assigneeOf(pending)],
      (v) => v[0] === null && v[1] === null,
      45_000,
    );
    // A resolved conversation keeps who handled it.
    expect(await assigneeOf(resolved)).toBe(agent.body.id);
    // The lists are eventually consistent: they show the release once their indexes have.
    const idsIn = async (query: string) =>
      (await call('GET', `/conversations?${query}`, as)).body.data.map((c: { id: string }) => c.id).sort();
    await settlesTo(() => idsIn('assignee_id=none'), [open, pending].sort());
    await settlesTo(() => idsIn(`assignee_id=${agent.body.id}`), []);
    const releases = async () =>
      (await call('GET', '/events?type=conversation.updated&limit=100', as)).body.data.filter(
        (e: { data: { changes: { assignee_id?: unknown } } }) =>
          JSON.stringify(e.data.changes.assignee_id) === JSON.stringify({ from: agent.body.id, to: null }),
      );
    await eventually(releases, (v) => v.length === 2);
    expect(
      (await releases()).map((e: { data: { conversation: { id: string } } }) => e.data.conversation.id).sort(),
    ).toEqual([open, pending].sort());

    // Reopened, the resolved one does not go back to the disabled user.
    const reopened = await patch(resolved, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', assignee_id: null });
  });

  it('wakes a conversation whose snooze is over as it releases it, in one change', async () => {
    const d = await createTenant();
    const as = { tenant: d.tenantId, token: d.apiKey };
    const agent = await call('POST', '/users', {
      ...as,
      body: { email: `sleeper-${Date.now()}@example.com`, password: 'a long enough password' },
    });
    const userId = agent.body.id as string;
    const open = async (from: string) =>
      (await call('POST', '/channels/sandbox/inbound', { ...as, body: { from, text: 'hi' } })).body.conversation
        .id as string;
    // The worker's own run, on disabling, releases a first conversation: once it has, it is done.
    const first = await open('+491511000096');
    await call('PATCH', `/conversations/${first}`, { ...as, body: { assignee_id: userId } });
    expect((await call('PATCH', `/users/${userId}`, { ...as, body: { status: 'disabled' } })).status).toBe(200);
    await eventually(
      async () => (await call('GET', `/conversations/${first}`, as)).body.assignee_id,
      (v) => v === null,
    );
    // The worker passes over the assignee index again 4 s later: let it finish before the next step.
    await new Promise((r) => setTimeout(r, 6000));
    // A conversation snoozed for an hour, left with the disabled user (written directly: the API, and the
    // store's own check, refuse to assign a disabled user), released as if two hours had passed: the
    // wakers never see it due meanwhile.
    const id = await open('+491511000097');
    const hour = new Date(Date.now() + 3600_000).toISOString();
    await call('PATCH', `/conversations/${id}`, { ...as, body: { status: 'snoozed', snoozed_until: hour } });
    const before = await getConversation(d.tenantId, id);
    if (!before) throw new Error('no conversation');
    await db().send(
      new UpdateCommand({
        TableName: `local-${TABLES.main.id}`,
        Key: { pk: `TENANT#${d.tenantId}`, sk: `CONV#${id}#~` },
        UpdateExpression: 'SET #c.#assignee = :user, #c.#v = :v, c_asg = :asg',
        ExpressionAttributeNames: { '#c': 'conversation', '#assignee': 'assignee_id', '#v': 'version' },
        ExpressionAttributeValues: { ':user': userId, ':v': before.version + 1, ':asg': `${d.tenantId}#${userId}` },
      }),
    );

    expect(await releaseAssignments(d.tenantId, userId, new Date(Date.now() + 2 * 3600_000))).toBe(1);
    expect((await call('GET', `/conversations/${id}`, as)).body).toMatchObject({
      status: 'open',
      snoozed_until: null,
      assignee_id: null,
    });
    // The release and the wake are one change: the unsnooze is not left for the waker.
    // The event list is eventually consistent: wait for it to show the release's event (newest first).
    type Update = { data: { conversation: { id: string }; changes: Record<string, unknown> } };
    const updates = await eventually(
      async () =>
        ((await call('GET', '/events?type=conversation.updated&limit=100', as)).body.data as Update[]).filter(
          (e) => e.data.conversation.id === id,
        ),
      (list) => list.some((e) => 'assignee_id' in e.data.changes),
    );
    expect(updates.find((e) => 'assignee_id' in e.data.changes)?.data.changes).toMatchObject({
      assignee_id: { from: userId, to: null },
      status: { from: 'snoozed', to: 'open' },
      snoozed_until: { from: hour, to: null },
    });
  });

  it('releases nothing of a user who is active (enabled again before the worker came by)', async () => {
    const d = await createTenant();
    const as = { tenant: d.tenantId, token: d.apiKey };
    const conv = await call('POST', '/channels/sandbox/inbound', {
      ...as,
      body: { from: '+491511000095', text: 'hi' },
    });
    const id = conv.body.conversation.id as string;
    await call('PATCH', `/conversations/${id}`, { ...as, body: { assignee_id: d.adminUserId } });
    expect(await releaseAssignments(d.tenantId, d.adminUserId, new Date())).toBe(0);
    expect((await call('GET', `/conversations/${id}`, as)).body.assignee_id).toBe(d.adminUserId);
  });
});

describe('cursor pagination', () => {
  it('walks newest first with signed, tenant-bound cursors', async () => {
    const p = await createTenant();
    const pauth = { tenant: p.tenantId, token: p.apiKey };
    for (let i = 0; i < 4; i++)
      await call('POST', '/users', {
        ...pauth,
        body: { email: `page${i}@example.com`, password: 'pagination password' },
      });
    await listEventually('/users?limit=100', pauth, (body) => body.data.length === 5);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await call(
        'GET',
        `/users?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        pauth,
      );
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(2);
      seen.push(...res.body.data.map((u: { email: string }) => u.email));
      cursor = res.body.pagination.next_cursor;
      expect(res.body.pagination.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([
      'page3@example.com',
      'page2@example.com',
      'page1@example.com',
      'page0@example.com',
      p.adminEmail,
    ]);

    const first = await call('GET', '/users?limit=1', pauth);
    const c = first.body.pagination.next_cursor;
    const other = await createTenant();
    const foreign = await call('GET', `/users?cursor=${encodeURIComponent(c)}`, {
      tenant: other.tenantId,
      token: other.apiKey,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('invalid_cursor');
    const tampered = await call('GET', `/users?cursor=${encodeURIComponent(`x${c}`)}`, pauth);
    expect(tampered.status).toBe(400);
    const crossList = await call('GET', `/api-keys?cursor=${encodeURIComponent(c)}`, pauth);
    expect(crossList.status).toBe(400);
  });
});

describe('platform API', () => {
  it('needs the platform token', async () => {
    expect((await call('GET', '/platform/tenants')).status).toBe(401);
    expect((await call('GET', '/platform/tenants', { token: t.apiKey })).status).toBe(401);
  });

  it('creates tenants with an admin and a key, validates plans, reads, lists and patches', async () => {
    const enterpriseWithout = await platform('POST', '/tenants', {
      name: 'E',
      plan: 'enterprise',
      admin: { email: 'e@example.com', password: 'enterprise password' },
    });
    expect(enterpriseWithout.status).toBe(422);
    const freeWith = await platform('POST', '/tenants', {
      name: 'F',
      plan: 'free',
      rate_limit_per_hour: 5,
      admin: { email: 'f@example.com', password: 'free plan password' },
    });
    expect(freeWith.status).toBe(422);
    const injected = await platform('POST', '/tenants', {
      name: 'I',
      plan: 'free',
      id: 'mine',
      admin: { email: 'i@example.com', password: 'injected password' },
    });
    expect(injected.status).toBe(422);

    const created = await platform('POST', '/tenants', {
      name: 'Acme',
      plan: 'enterprise',
      rate_limit_per_hour: 5000,
      admin: { email: 'boss@acme.example', password: 'acme admin password', name: 'Boss' },
    });
    expect(created.status).toBe(201);
    expect(created.body.tenant).toMatchObject({
      name: 'Acme',
      plan: 'enterprise',
      rate_limit_per_hour: 5000,
      status: 'active',
      version: 1,
    });
    expect(created.body.admin_user).toMatchObject({ email: 'boss@acme.example', role: 'admin' });
    expect(created.body.api_key.key).toMatch(/^sk_/);
    const id = created.body.tenant.id;

    const got = await platform('GET', `/tenants/${id}`);
    expect(got.body.name).toBe('Acme');
    expect(got.headers.get('etag')).toBe('"1"');
    expect((await platform('GET', '/tenants/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await platform('GET', '/tenants/nope')).status).toBe(404);

    const downgraded = await platform('PATCH', `/tenants/${id}`, { plan: 'starter' });
    expect(downgraded.body).toMatchObject({ plan: 'starter', rate_limit_per_hour: 1000, version: 2 });
    const stale = await platform('PATCH', `/tenants/${id}`, { name: 'Stale' }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);

    const listed = await eventually(
      () => platform('GET', '/tenants?limit=100'),
      (res) => res.status !== 200 || res.body.data.some((x: { id: string }) => x.id === id),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(id);
  });
});
