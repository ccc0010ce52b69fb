// Cursor pagination across real pages: for await over every item, one page at a time, resuming from a
// cursor, toArray with a maximum, and the thenable list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Page, type Conversation } from '../src/index.js';
import { newTenant, phone, startProxy, type TestTenant } from './helpers.js';

let t: TestTenant;
let proxy: Awaited<ReturnType<typeof startProxy>>;
const ids: string[] = [];
before(async () => {
  t = await newTenant();
  proxy = await startProxy();
  for (let i = 0; i < 7; i++) {
    const result = await t.client.channels.sandboxInbound({ from: phone(), text: `Customer ${i}` });
    assert.ok('conversation' in result);
    ids.unshift(result.conversation.id); // newest first
  }
});
after(() => proxy.close());

describe('pagination', () => {
  it('for await walks every item of every page, newest first', async () => {
    const client = t.clientWith({ baseUrl: proxy.url });
    const seen: string[] = [];
    const before = (await proxy.seen()).length;
    for await (const conversation of client.conversations.list({ status: 'open', limit: 3 })) seen.push(conversation.id);
    assert.deepEqual(seen, ids);
    const requests = (await proxy.seen()).slice(before);
    assert.equal(requests.length, 3);
    assert.ok(requests.every((r) => r.path.includes('limit=3') && r.path.includes('status=open')));
    assert.ok(!requests[0]?.path.includes('cursor='));
    assert.ok(requests[1]?.path.includes('cursor=') && requests[2]?.path.includes('cursor='));
  });

  it('page() gives one page with its cursor; nextPage() and a list from the cursor continue it', async () => {
    const first = await t.client.conversations.list({ limit: 3 }).page();
    assert.ok(first instanceof Page);
    assert.deepEqual(first.data.map((c) => c.id), ids.slice(0, 3));
    assert.deepEqual([...first].map((c) => c.id), ids.slice(0, 3));
    assert.equal(first.hasMore, true);
    assert.equal(first.limit, 3);
    assert.equal(typeof first.nextCursor, 'string');

    const second = await first.nextPage();
    assert.deepEqual(second?.data.map((c) => c.id), ids.slice(3, 6));
    const resumed = await t.client.conversations.list({ limit: 3, cursor: first.nextCursor! }).page();
    assert.deepEqual(resumed.data.map((c) => c.id), ids.slice(3, 6));

    const last = await second!.nextPage();
    assert.deepEqual(last?.data.map((c) => c.id), ids.slice(6));
    assert.equal(last?.hasMore, false);
    assert.equal(last?.nextCursor, null);
    assert.equal(await last!.nextPage(), null);
  });

  it('awaiting a list gives its first page; pages() yields each page', async () => {
    const page = await t.client.conversations.list({ limit: 5 });
    assert.equal(page.data.length, 5);
    const sizes: number[] = [];
    for await (const p of t.client.conversations.list({ limit: 5 }).pages()) sizes.push(p.data.length);
    assert.deepEqual(sizes, [5, 2]);
  });

  it('toArray stops fetching at max', async () => {
    const client = t.clientWith({ baseUrl: proxy.url });
    const before = (await proxy.seen()).length;
    const some: Conversation[] = await client.conversations.list({ limit: 2 }).toArray({ max: 3 });
    assert.deepEqual(some.map((c) => c.id), ids.slice(0, 3));
    assert.equal((await proxy.seen()).length - before, 2);
    assert.equal((await client.conversations.list({ limit: 100 }).toArray()).length, 7);
    assert.deepEqual(await client.conversations.list().toArray({ max: 0 }), []);
  });

  it('a list is lazy: nothing is fetched until it is used', async () => {
    const client = t.clientWith({ baseUrl: proxy.url });
    const before = (await proxy.seen()).length;
    const list = client.conversations.list({ limit: 1 });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await proxy.seen()).length, before);
    await list.page();
    assert.equal((await proxy.seen()).length, before + 1);
  });
});
