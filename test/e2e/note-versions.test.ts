import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../functions/platform/db';
import { newId } from '../../functions/platform/ids';
import { TABLES } from '../../catalog/resources';
import { authOf, call, createTenant, listEventually, settlesTo, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();
const table = `local-${TABLES.main.id}`;

let n: TestTenant;
let conversation: string;
beforeAll(async () => {
  n = await createTenant();
  const res = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(n),
    body: { from: '+491511000099', text: 'Can I bring my dog?' },
  });
  conversation = res.body.conversation.id;
});

const notes = () => `/conversations/${conversation}/notes`;
const add = (text: string) => call('POST', notes(), { ...authOf(n), body: { text } });
const edit = (id: string, text: string, ifMatch?: string) =>
  call('PATCH', `${notes()}/${id}`, { ...authOf(n), body: { text }, headers: ifMatch ? { 'If-Match': ifMatch } : {} });
const remove = (id: string, ifMatch?: string) =>
  call('DELETE', `${notes()}/${id}`, { ...authOf(n), headers: ifMatch ? { 'If-Match': ifMatch } : {} });

describe('note versions', () => {
  it('guard edits and deletes with If-Match, so two people editing one note cannot overwrite each other', async () => {
    const created = await add('Dogs welcome?');
    expect(created.status).toBe(201);
    expect(created.body.version).toBe(1);
    expect(created.headers.get('etag')).toBe('"1"');

    const mine = await edit(created.body.id, 'Dogs are welcome on the terrace.', '"1"');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ text: 'Dogs are welcome on the terrace.', version: 2 });
    // A second edit made on version 1 arrives late: 412, and the note keeps the first edit.
    const late = await edit(created.body.id, 'No dogs.', '"1"');
    expect(late).toMatchObject({ status: 412, body: { code: 'version_mismatch' } });
    // The same text on a stale version is refused too: the caller has not seen what is there.
    expect((await edit(created.body.id, 'Dogs are welcome on the terrace.', '"1"')).status).toBe(412);
    expect((await edit(created.body.id, 'x', 'nonsense')).status).toBe(400);

    expect((await remove(created.body.id, '"1"')).status).toBe(412);
    await settlesTo(async () => (await call('GET', notes(), authOf(n))).body.data, [mine.body]);
    expect((await remove(created.body.id, '"2"')).status).toBe(204);
    await settlesTo(async () => (await call('GET', notes(), authOf(n))).body.data, []);
  });

  it('reads a note stored before versions as version 1, and its first edit makes it 2', async () => {
    const me = await call('GET', '/auth/me', authOf(n));
    const id = newId('note');
    await db().send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `TENANT#${n.tenantId}`,
          sk: `CONVNOTE#${conversation}#${id}`,
          id,
          tenant_id: n.tenantId,
          conversation_id: conversation,
          text: 'Written before versions.',
          author: { type: 'api_key', id: me.body.key_id },
          created_at: '2026-01-01T00:00:00.000Z',
        },
      }),
    );
    const [legacy] = (await listEventually(notes(), authOf(n), (body) => body.data.length > 0)).body.data;
    expect(legacy).toMatchObject({ id, edited_at: null, version: 1 });
    expect((await edit(id, 'Edited on version 2.', '"2"')).status).toBe(412);
    const edited = await edit(id, 'Edited once.', '"1"');
    expect(edited.body).toMatchObject({ text: 'Edited once.', version: 2 });
    expect((await remove(id, '"1"')).status).toBe(412);
    expect((await remove(id, '"2"')).status).toBe(204);
  });
});
