import {
  authOf,
  call,
  connectWhatsApp,
  createTenant,
  eventsOf,
  eventually,
  listEventually,
  scheduledRunLateMs,
  type TestTenant,
} from '../support/api';
import { testRuntime } from '../support/runtime';
import { PAYLOAD_SETTLES_MS } from '../support/whatsapp';

/** Message templates: the sandbox's review, and Meta's through the fake Graph server (its status webhook). */
let t: TestTenant;
let phoneNumberId: string;

const reminder = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  language: 'en',
  category: 'utility',
  body: { text: 'Hi {{1}}, see you on {{2}}.', examples: ['Maria', 'Tuesday 10:00'] },
  footer: { text: 'Reply to change it' },
  buttons: [
    { type: 'quick_reply', text: 'Confirm' },
    { type: 'quick_reply', text: 'Cancel' },
    { type: 'quick_reply', text: 'Reschedule' },
  ],
  ...extra,
});
const templateOf = async (id: string) => (await call('GET', `/templates/${id}`, authOf(t))).body;

beforeAll(async () => {
  t = await createTenant();
  phoneNumberId = `7${Math.floor(Math.random() * 1e9)}`;
  await connectWhatsApp(t, phoneNumberId);
});

describe('sandbox templates', () => {
  it(
    'are approved after the review delay, with their event; a name asking for it is rejected with a reason',
    async () => {
      const created = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'sandbox', ...reminder('visit_reminder') },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        channel: 'sandbox',
        channel_account_id: null,
        status: 'pending',
        name: 'visit_reminder',
        body: { examples: ['Maria', 'Tuesday 10:00'] },
        buttons: [{ type: 'quick_reply', text: 'Confirm' }, expect.anything(), expect.anything()],
      });
      const rejected = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'sandbox', ...reminder('please_reject_me') },
      });
      expect(rejected.status).toBe(201);

      // The business scheduler reviews them; under the chaos mode a timed-out run's lease delays the next.
      const approved = await eventually(
        () => templateOf(created.body.id),
        (tpl) => tpl.status !== 'pending',
        20_000 + scheduledRunLateMs(),
      );
      expect(approved).toMatchObject({ status: 'approved', rejection_reason: null, version: 2 });
      const refused = await eventually(
        () => templateOf(rejected.body.id),
        (tpl) => tpl.status !== 'pending',
        20_000 + scheduledRunLateMs(),
      );
      expect(refused).toMatchObject({ status: 'rejected', rejection_reason: 'INVALID_FORMAT' });

      const events = await eventsOf(t, 'template.status_updated', (list) => list.length >= 2);
      const ofApproved = events.filter((e) => e.data.template.id === created.body.id);
      expect(ofApproved).toHaveLength(1);
      expect(ofApproved[0].data).toMatchObject({ previous_status: 'pending', template: { status: 'approved' } });

      const list = await call('GET', '/templates?limit=100', authOf(t));
      expect(list.body.data.map((x: any) => x.id)).toEqual(expect.arrayContaining([created.body.id, rejected.body.id]));
      const again = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'sandbox', ...reminder('visit_reminder') },
      });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('template_exists');
    },
    60_000 + 2 * scheduledRunLateMs(),
  );

  it('refuses what Meta would refuse, naming the rule', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ body: { text: 'Hi {{1}} and {{3}} ok', examples: ['a', 'b'] } }, 'body', /without gaps/],
      [{ body: { text: 'Hi {{1}}, ok', examples: [] } }, 'body', /one example per parameter/],
      [{ body: { text: '{{1}} starts it', examples: ['a'] } }, 'body', /may not start or end/],
      [{ footer: { text: 'x'.repeat(61) } }, 'footer.text', /60/],
      [{ name: 'Has Spaces' }, 'name', /lower-case/],
      [
        { buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'quick_reply', text: `b${i}` })) },
        'buttons',
        /at most 10/,
      ],
      [{ buttons: [{ type: 'quick_reply', text: 'x'.repeat(26) }] }, 'buttons.0.text', /25/],
      [{ header: { format: 'text', text: 'Hi {{1}} {{2}} there', example: 'a' } }, 'header', /at most 1 parameter/],
    ];
    for (const [change, path, message] of cases) {
      const res = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'sandbox', ...reminder(`bad_${Math.random().toString(36).slice(2, 8)}`), ...change },
      });
      expect(res.status).toBe(422);
      const error = res.body.errors.find((e: any) => e.path === path);
      expect(error?.message).toMatch(message);
    }
  });

  it('are another tenant\u2019s 404, and deleted ones are gone', async () => {
    const other = await createTenant();
    const mine = await call('POST', '/templates', {
      ...authOf(t),
      body: { channel: 'sandbox', ...reminder('mine_only') },
    });
    expect((await call('GET', `/templates/${mine.body.id}`, authOf(other))).status).toBe(404);
    expect((await call('DELETE', `/templates/${mine.body.id}`, authOf(other))).status).toBe(404);
    expect((await call('DELETE', `/templates/${mine.body.id}`, authOf(t))).status).toBe(204);
    expect((await call('GET', `/templates/${mine.body.id}`, authOf(t))).status).toBe(404);
  });
});

describe('WhatsApp templates (fake Graph API)', () => {
  it(
    'are submitted to the account, and follow Meta\u2019s status webhook',
    async () => {
      const created = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'whatsapp', ...reminder('booking_reminder'), language: 'en_US' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ channel: 'whatsapp', channel_account_id: phoneNumberId });
      // Meta reviews within moments: a review processed before the create recorded it comes with the answer.
      expect(['pending', 'approved']).toContain(created.body.status);
      expect(created.body.provider_template_id).toMatch(/^\d+$/);
      const requests = (await (await fetch(`${testRuntime().graphUrl}/__requests`)).json()) as any[];
      const sent = requests.find((r) => r.kind === 'template' && r.body?.name === 'booking_reminder');
      expect(sent.waba_id).toBe(`8${phoneNumberId}`);
      expect(sent.body).toMatchObject({
        category: 'UTILITY',
        language: 'en_US',
        components: expect.arrayContaining([
          { type: 'BODY', text: 'Hi {{1}}, see you on {{2}}.', example: { body_text: [['Maria', 'Tuesday 10:00']] } },
          { type: 'FOOTER', text: 'Reply to change it' },
          expect.objectContaining({ type: 'BUTTONS' }),
        ]),
      });
      // Meta's review comes as a webhook payload: under chaos, a part that failed comes back after the
      // inbound queue's visibility timeout (PAYLOAD_SETTLES_MS).
      const approved = await eventually(
        () => templateOf(created.body.id),
        (tpl) => tpl.status === 'approved',
        PAYLOAD_SETTLES_MS,
      );
      expect(approved.rejection_reason).toBeNull();

      const rejected = await call('POST', '/templates', {
        ...authOf(t),
        body: { channel: 'whatsapp', ...reminder('meta_will_reject_this') },
      });
      const refused = await eventually(
        () => templateOf(rejected.body.id),
        (tpl) => tpl.status !== 'pending',
        PAYLOAD_SETTLES_MS,
      );
      expect(refused).toMatchObject({ status: 'rejected', rejection_reason: 'INVALID_FORMAT' });
    },
    2 * PAYLOAD_SETTLES_MS + 30_000,
  );

  it('a create sent again after Meta accepted it adopts Meta\u2019s template; other content under the name is a conflict', async () => {
    const madeAtMeta = (name: string, text: string) =>
      fetch(`${testRuntime().graphUrl}/__templates`, {
        method: 'POST',
        body: JSON.stringify({
          waba_id: `8${phoneNumberId}`,
          name,
          language: 'en',
          category: 'UTILITY',
          components: [{ type: 'BODY', text, example: { body_text: [['Maria']] } }],
        }),
      }).then((res) => res.json() as Promise<{ id: string }>);
    const body = (name: string) => ({
      channel: 'whatsapp',
      name,
      language: 'en',
      category: 'utility',
      body: { text: 'Hi {{1}}, your table is ready.', examples: ['Maria'] },
    });
    // What an earlier attempt left: Meta has the template, this platform has no record of it.
    const earlier = await madeAtMeta('table_ready', 'Hi {{1}}, your table is ready.');
    const retried = await call('POST', '/templates', { ...authOf(t), body: body('table_ready') });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ provider_template_id: earlier.id, status: 'approved' });
    expect((await templateOf(retried.body.id)).provider_template_id).toBe(earlier.id);

    await madeAtMeta('table_ready_other', 'Hello {{1}}, something else entirely.');
    const taken = await call('POST', '/templates', { ...authOf(t), body: body('table_ready_other') });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'template_exists', detail: expect.stringContaining('/templates/sync') });
  });

  it('sync adds templates made in WhatsApp Manager; delete removes one at Meta', async () => {
    await fetch(`${testRuntime().graphUrl}/__templates`, {
      method: 'POST',
      body: JSON.stringify({
        waba_id: `8${phoneNumberId}`,
        name: 'made_elsewhere',
        language: 'de',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Hallo {{1}}!', example: { body_text: [['Max']] } }],
      }),
    });
    const sync = await call('POST', '/templates/sync', { ...authOf(t), body: {} });
    expect(sync.status).toBe(200);
    expect(sync.body.imported).toBeGreaterThanOrEqual(1);
    // The list is eventually consistent: it shows the import within moments.
    const list = (
      await listEventually('/templates?limit=100', authOf(t), (body) =>
        body.data.some((x: any) => x.name === 'made_elsewhere'),
      )
    ).body.data as any[];
    const imported = list.find((x) => x.name === 'made_elsewhere');
    expect(imported).toMatchObject({
      channel: 'whatsapp',
      language: 'de',
      category: 'marketing',
      status: 'approved',
      body: { text: 'Hallo {{1}}!', examples: ['Max'] },
    });
    expect((await call('POST', '/templates/sync', { ...authOf(t), body: {} })).body.imported).toBe(0);

    expect((await call('DELETE', `/templates/${imported.id}`, authOf(t))).status).toBe(204);
    const after = (await call('POST', '/templates/sync', { ...authOf(t), body: {} })).body;
    expect(after.imported).toBe(0);
    const listed = await listEventually(
      '/templates?limit=100',
      authOf(t),
      (body) => !body.data.some((x: any) => x.name === 'made_elsewhere'),
    );
    expect(listed.body.data.map((x: any) => x.name)).not.toContain('made_elsewhere');
  });

  it('need the number\u2019s account: a number connected without waba_id is told to reconnect', async () => {
    const tenant = await createTenant();
    const number = `7${Math.floor(Math.random() * 1e9)}`;
    await call('POST', '/channels/whatsapp', {
      ...authOf(tenant),
      body: { phone_number_id: number, access_token: `EAAG-token-${number}` },
    });
    const res = await call('POST', '/templates', {
      ...authOf(tenant),
      body: { channel: 'whatsapp', ...reminder('x_y') },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('whatsapp_account_unknown');
  });
});
