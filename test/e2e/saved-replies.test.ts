import { authOf, call, createTenant, login, settlesTo, type TestTenant } from '../support/api';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});

const save = (body: unknown, tenant = t) => call('POST', '/saved-replies', { ...authOf(tenant), body });
const get = (id: string, tenant = t) => call('GET', `/saved-replies/${id}`, authOf(tenant));
const list = (query = '', tenant = t) => call('GET', `/saved-replies${query}`, authOf(tenant));
const change = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', `/saved-replies/${id}`, { ...authOf(t), body, headers });
const shortcuts = async (query = '') =>
  (await list(query)).body.data.map((r: { shortcut: string }) => r.shortcut) as string[];

describe('saved replies', () => {
  it('saves a reply for the team, read back by id and listed A to Z by shortcut', async () => {
    const created = await save({
      shortcut: ' Thanks ',
      title: 'Thank you',
      text: 'Thank you, {{customer.first_name}}!',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.headers.get('location')).toBe(`/api/v1/saved-replies/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^rpl_/),
      tenant_id: t.tenantId,
      shortcut: 'thanks',
      title: 'Thank you',
      text: 'Thank you, {{customer.first_name}}!',
      created_by: { type: 'api_key', id: expect.stringMatching(/^key_/) },
      created_at: expect.any(String),
      updated_at: created.body.created_at,
      version: 1,
    });
    expect((await get(created.body.id)).body).toEqual(created.body);

    await save({ shortcut: 'address', title: 'Where we are', text: 'Hauptstraße 1, Berlin.' });
    await save({ shortcut: 'hours', title: 'Opening hours', text: 'Mon–Fri 9–18.' });
    await save({ shortcut: 'hours-weekend', title: 'Weekend hours', text: 'Sat 10–14.' });
    await settlesTo(() => shortcuts(), ['address', 'hours', 'hours-weekend', 'thanks']);
    // What a composer asks while `/Ho` is typed: the shortcuts that start with it.
    await settlesTo(() => shortcuts('?shortcut=Ho'), ['hours', 'hours-weekend']);
    await settlesTo(() => shortcuts('?shortcut=/ho'), ['hours', 'hours-weekend']);
    await settlesTo(() => shortcuts('?shortcut=x'), []);

    const first = await list('?limit=2');
    expect(first.body.pagination).toMatchObject({ limit: 2, has_more: true });
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    await settlesTo(() => shortcuts(`?limit=2&cursor=${cursor}`), ['hours-weekend', 'thanks']);
    // A cursor belongs to the list it came from.
    const foreign = await list(`?limit=2&shortcut=h&cursor=${cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('invalid_cursor');
  });

  it('keeps a shortcut to one reply: 409 shortcut_taken names the holder, and nothing changes', async () => {
    const holder = (await save({ shortcut: 'refund', title: 'Refunds', text: 'Refunds take 5 days.' })).body;
    const again = await save({ shortcut: 'REFUND', title: 'Other', text: 'Something else.' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(again.body).toMatchObject({ code: 'shortcut_taken' });
    expect(again.body.detail).toContain(holder.id);
    await settlesTo(() => shortcuts('?shortcut=refund'), ['refund']);
    expect((await get(holder.id)).body).toEqual(holder);

    // Moving another reply onto it is refused the same way, and that reply keeps its shortcut.
    const other = (await save({ shortcut: 'refund-late', title: 'Late refunds', text: 'Sorry for the wait.' })).body;
    const moved = await change(other.id, { shortcut: 'refund' });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('shortcut_taken');
    expect((await get(other.id)).body).toEqual(other);
  });

  it('refuses what a reply cannot be, with the field that is wrong', async () => {
    const cases: [unknown, string][] = [
      [{ shortcut: 'two words', title: 'x', text: 'x' }, 'shortcut'],
      [{ shortcut: '/', title: 'x', text: 'x' }, 'shortcut'],
      [{ shortcut: 'a'.repeat(33), title: 'x', text: 'x' }, 'shortcut'],
      [{ shortcut: 'ok', title: '', text: 'x' }, 'title'],
      [{ shortcut: 'ok', title: 'x', text: '   ' }, 'text'],
      [{ shortcut: 'ok', title: 'x', text: 'Hi {{customer.nickname}}' }, 'text'],
      [{ shortcut: 'ok', title: 'x', text: 'Hi {{customer.name' }, 'text'],
      [{ shortcut: 'ok', title: 'x', text: 'x'.repeat(4097) }, 'text'],
      [{ shortcut: 'ok', title: 'x', text: 'x', extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await save(body);
      expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
      if (field) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    const unknown = await save({ shortcut: 'ok', title: 'x', text: 'Hi {{customer.nickname}}' });
    expect(unknown.body.errors[0].message).toContain('unknown placeholder {{customer.nickname}}');
    // Each unknown name once, and at most five problems, however long the text.
    const many = await save({
      shortcut: 'ok',
      title: 'x',
      text: '{{a}} {{a}} {{b}} {{c}} {{d}} {{e}} {{f}} '.repeat(50),
    });
    expect(many.body.errors.map((e: { message: string }) => e.message.slice(0, 25))).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `unknown placeholder {{${n}}}`),
    );
    await settlesTo(() => shortcuts('?shortcut=ok'), []);
    expect((await list('?shortcut=' + 'a'.repeat(33))).status).toBe(400);
  });

  it('changes a reply: a new version; the old shortcut is free at once; the same values change nothing', async () => {
    const reply = (await save({ shortcut: 'delay', title: 'Delays', text: 'We are running late.' })).body;
    const same = await change(reply.id, { title: 'Delays', text: 'We are running late.' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(reply);

    const moved = await change(
      reply.id,
      { shortcut: 'late', text: 'We are running 10 minutes late.' },
      { 'If-Match': '"1"' },
    );
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).toBe('"2"');
    expect(moved.body).toMatchObject({ shortcut: 'late', text: 'We are running 10 minutes late.', version: 2 });
    await settlesTo(() => shortcuts('?shortcut=late'), ['late']);
    await settlesTo(() => shortcuts('?shortcut=delay'), []);
    expect((await list('?shortcut=late')).body.data[0]).toEqual(moved.body);
    expect((await save({ shortcut: 'delay', title: 'New', text: 'Another.' })).status).toBe(201);

    // A new title under the same shortcut: the list shows it too.
    const retitled = await change(reply.id, { title: 'Running late' });
    expect(retitled.body).toMatchObject({ shortcut: 'late', title: 'Running late', version: 3 });
    await settlesTo(async () => (await list('?shortcut=late')).body.data, [retitled.body]);

    const stale = await change(reply.id, { title: 'Stale' }, { 'If-Match': '"1"' });
    expect([stale.status, stale.body.code]).toEqual([412, 'version_mismatch']);
    expect((await get(reply.id)).body).toEqual(retitled.body);
    expect((await change(reply.id, {})).status).toBe(422);
  });

  it('deletes a reply and frees its shortcut', async () => {
    const reply = (await save({ shortcut: 'bye', title: 'Goodbye', text: 'Have a nice day!' })).body;
    const deleted = await call('DELETE', `/saved-replies/${reply.id}`, authOf(t));
    expect(deleted.status).toBe(204);
    expect((await get(reply.id)).status).toBe(404);
    await settlesTo(() => shortcuts('?shortcut=bye'), []);
    expect((await call('DELETE', `/saved-replies/${reply.id}`, authOf(t))).status).toBe(404);
    expect((await save({ shortcut: 'bye', title: 'Goodbye', text: 'See you!' })).status).toBe(201);
  });

  it('fills in the placeholders for a conversation: its customer, and the user who asks', async () => {
    const reply = (
      await save({
        shortcut: 'welcome',
        title: 'Welcome',
        text: 'Hi {{customer.first_name | there}} ({{ customer.phone }}), I am {{agent.first_name}}. {{customer.name}}',
      })
    ).body;
    const named = (
      await call('POST', '/conversations', {
        ...authOf(t),
        body: { channel: 'sandbox', customer: { phone: '+491514000001', name: 'Maria Lopez' } },
      })
    ).body;
    const nameless = (
      await call('POST', '/conversations', {
        ...authOf(t),
        body: { channel: 'sandbox', customer: { phone: '+491514000002' } },
      })
    ).body;
    await call('PATCH', `/users/${t.adminUserId}`, { ...authOf(t), body: { name: 'Ana Silva' } });
    const session = await login(t);
    const asUser = { tenant: t.tenantId, token: session.access_token };
    const render = (conversationId: string, auth: { tenant: string; token: string } = asUser) =>
      call('POST', `/saved-replies/${reply.id}/render`, { ...auth, body: { conversation_id: conversationId } });

    const forMaria = await render(named.id);
    expect(forMaria.status).toBe(200);
    expect(forMaria.body).toEqual({ text: 'Hi Maria (+491514000001), I am Ana. Maria Lopez', missing: [] });
    // No name: the fallback where there is one; the rest is left empty and named.
    expect((await render(nameless.id)).body).toEqual({
      text: 'Hi there (+491514000002), I am Ana.',
      missing: ['customer.name'],
    });
    // An API key is nobody: agent.* are missing.
    expect((await render(named.id, authOf(t))).body).toEqual({
      text: 'Hi Maria (+491514000001), I am . Maria Lopez',
      missing: ['agent.first_name'],
    });
    const noReply = await call('POST', '/saved-replies/rpl_01JDQ8ZK3M4N5P6Q7R8S9T0V1W/render', {
      ...asUser,
      body: { conversation_id: named.id },
    });
    expect([noReply.status, noReply.body.detail]).toEqual([404, 'The saved reply was not found.']);
    const unknown = await render('conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W');
    expect([unknown.status, unknown.body.detail]).toEqual([404, 'The conversation was not found.']);
    expect((await render('not-an-id')).status).toBe(422);
  });

  it('under concurrent writes, a shortcut still names one reply and no claim is left behind', async () => {
    // Five saves of one shortcut at once: one is saved, the others are told it is taken.
    const saves = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => save({ shortcut: 'race', title: `Race ${n}`, text: 'Who wins?' })),
    );
    expect(saves.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const lost of saves.filter((r) => r.status === 409)) expect(lost.body.code).toBe('shortcut_taken');
    await settlesTo(() => shortcuts('?shortcut=race'), ['race']);

    // Two replies renamed onto one shortcut at once: one moves, the other keeps its own.
    const a = (await save({ shortcut: 'race-a', title: 'A', text: 'a' })).body;
    const b = (await save({ shortcut: 'race-b', title: 'B', text: 'b' })).body;
    const renames = await Promise.all([change(a.id, { shortcut: 'race-c' }), change(b.id, { shortcut: 'race-c' })]);
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    const [winner, loser] = renames[0].status === 200 ? [a, b] : [b, a];
    expect((await get(winner.id)).body.shortcut).toBe('race-c');
    expect((await get(loser.id)).body).toEqual(loser);
    await settlesTo(() => shortcuts('?shortcut=race-'), ['race-c', loser.shortcut].sort());

    // A rename and a delete at once: the delete wins in the end, and neither shortcut stays claimed.
    const c = (await save({ shortcut: 'race-d', title: 'D', text: 'd' })).body;
    const [renamed, deleted] = await Promise.all([
      change(c.id, { shortcut: 'race-e' }),
      call('DELETE', `/saved-replies/${c.id}`, authOf(t)),
    ]);
    expect(deleted.status).toBe(204);
    expect([200, 404]).toContain(renamed.status);
    expect((await get(c.id)).status).toBe(404);
    await settlesTo(() => shortcuts('?shortcut=race-d'), []);
    await settlesTo(() => shortcuts('?shortcut=race-e'), []);
    expect((await save({ shortcut: 'race-e', title: 'E', text: 'e' })).status).toBe(201);
  });

  it('keeps tenants apart: another tenant cannot read, list, change, delete or fill in a reply', async () => {
    const other = await createTenant();
    const reply = (await save({ shortcut: 'private', title: 'Ours', text: 'Only ours.' })).body;
    const theirConversation = (
      await call('POST', '/conversations', {
        ...authOf(other),
        body: { channel: 'sandbox', customer: { phone: '+491514000009', name: 'Eve' } },
      })
    ).body;
    expect((await get(reply.id, other)).status).toBe(404);
    expect((await list('?shortcut=private', other)).body.data).toEqual([]);
    expect((await call('PATCH', `/saved-replies/${reply.id}`, { ...authOf(other), body: { title: 'x' } })).status).toBe(
      404,
    );
    expect((await call('DELETE', `/saved-replies/${reply.id}`, authOf(other))).status).toBe(404);
    const rendered = await call('POST', `/saved-replies/${reply.id}/render`, {
      ...authOf(other),
      body: { conversation_id: theirConversation.id },
    });
    expect(rendered.status).toBe(404);
    // Their own shortcut of the same name is theirs to take.
    expect((await save({ shortcut: 'private', title: 'Theirs', text: 'Only theirs.' }, other)).status).toBe(201);
    // And our reply cannot be filled in with their conversation.
    const crossed = await call('POST', `/saved-replies/${reply.id}/render`, {
      ...authOf(t),
      body: { conversation_id: theirConversation.id },
    });
    expect([crossed.status, crossed.body.detail]).toEqual([404, 'The conversation was not found.']);
    expect((await get(reply.id)).body).toEqual(reply);
  });
});
