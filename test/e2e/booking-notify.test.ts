import { authOf, call, createTenant, listEventually, platform, settlesTo, type TestTenant } from '../support/api';

let t: TestTenant;
let conversation: string;
let customer: string;
beforeAll(async () => {
  t = await createTenant();
  const opened = await call('POST', '/channels/sandbox/inbound', {
    ...authOf(t),
    body: { from: '+4915110000555', name: 'Maria Lopez', text: 'Can I come in on Tuesday?' },
  });
  conversation = opened.body.conversation.id;
  customer = opened.body.conversation.customer.id;
});

/** Tuesday 4 March 2031, Berlin (+01:00). */
const book = (extra: Record<string, unknown> = {}) =>
  call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { id: customer },
      conversation_id: conversation,
      service: 'Haircut',
      start_at: '2031-03-04T15:00:00+01:00',
      end_at: '2031-03-04T15:30:00+01:00',
      timezone: 'Europe/Berlin',
      ...extra,
    },
  });
const notify = (id: string, language?: string, auth = authOf(t)) =>
  call('POST', `/bookings/${id}/notify${language ? `?language=${language}` : ''}`, auth);

describe('POST /bookings/{id}/notify', () => {
  it('tells the customer, in their conversation, that the booking is confirmed, and then that it moved', async () => {
    const booking = (await book()).body;
    const sent = await notify(booking.id);
    expect(sent.status).toBe(202);
    expect(sent.headers.get('location')).toBe(`/api/v1/conversations/${conversation}/messages`);
    expect(sent.body).toMatchObject({
      conversation_id: conversation,
      direction: 'outbound',
      status: 'queued',
      text: 'Hi Maria, your Haircut is confirmed for Tuesday 4 March at 15:00. See you then!',
    });
    // It is a message like any other: in the conversation, sent through the channel.
    const listed = await listEventually(`/conversations/${conversation}/messages?limit=5`, authOf(t), (body) =>
      body.data.some((m: { id: string }) => m.id === sent.body.id),
    );
    expect(listed.body.data.map((m: { id: string }) => m.id)).toContain(sent.body.id);

    const moved = await call('PATCH', `/bookings/${booking.id}`, {
      ...authOf(t),
      body: { start_at: '2031-03-05T10:00:00+01:00', end_at: '2031-03-05T10:30:00+01:00' },
    });
    expect(moved.status).toBe(200);
    const german = await notify(booking.id, 'de');
    expect(german.body.text).toBe(
      'Hallo Maria, Ihr Termin (Haircut) wurde auf Mittwoch, 5. März um 10:00 Uhr verschoben (bisher Dienstag, 4. März um 15:00 Uhr). Wir freuen uns auf Sie!',
    );
  });

  it('says a request is received, and a cancellation, in the tenant\u2019s language unless asked for another', async () => {
    await platform('PATCH', `/tenants/${t.tenantId}`, { default_language: 'es' });
    try {
      const pending = (await book({ status: 'pending' })).body;
      expect((await notify(pending.id)).body.text).toBe(
        'Hola Maria, hemos recibido tu solicitud de cita (Haircut) para el martes, 4 de marzo a las 15:00. Te la confirmamos enseguida.',
      );
      await call('DELETE', `/bookings/${pending.id}`, authOf(t));
      expect((await notify(pending.id, 'en')).body.text).toBe(
        'Hi Maria, your Haircut on Tuesday 4 March at 15:00 is cancelled. Write to us any time to book again.',
      );
    } finally {
      await platform('PATCH', `/tenants/${t.tenantId}`, { default_language: 'en' });
    }
  });

  it('writes to the customer\u2019s own conversation when the booking names none, and refuses what it cannot tell', async () => {
    const outbound = async () =>
      (await call('GET', `/conversations/${conversation}/messages?limit=50`, authOf(t))).body.data.filter(
        (m: { direction: string }) => m.direction === 'outbound',
      ).length;
    // The list is eventually consistent: count once it has stopped changing (earlier tests' messages in).
    let before = await outbound();
    for (let again = -1; again !== before;) {
      again = before;
      await new Promise((r) => setTimeout(r, 2500));
      before = await outbound();
    }
    const unlinked = (
      await book({
        conversation_id: undefined,
        start_at: '2031-03-06T09:00:00+01:00',
        end_at: '2031-03-06T09:30:00+01:00',
      })
    ).body;
    const toCustomer = await notify(unlinked.id);
    expect(toCustomer.status).toBe(202);
    expect(toCustomer.body.conversation_id).toBe(conversation);
    // A customer with no conversation at all.
    const stranger = await call('POST', '/bookings', {
      ...authOf(t),
      body: {
        customer: { phone: '+4915110000556' },
        service: 'Haircut',
        start_at: '2031-03-04T15:00:00+01:00',
        end_at: '2031-03-04T15:30:00+01:00',
        timezone: 'Europe/Berlin',
      },
    });
    const none = await notify(stranger.body.id);
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('booking_without_conversation');

    // An appointment that took place, recorded afterwards and marked completed.
    const past = (await book({ start_at: '2026-01-05T10:00:00+01:00', end_at: '2026-01-05T10:30:00+01:00' })).body;
    await call('PATCH', `/bookings/${past.id}`, { ...authOf(t), body: { status: 'completed' } });
    const over = await notify(past.id);
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('nothing_to_notify');

    const other = await createTenant();
    expect((await notify(past.id, undefined, authOf(other))).status).toBe(404);
    expect((await notify('bkg_nope')).status).toBe(404);
    const badLanguage = await notify(past.id, 'it');
    expect(badLanguage.status).toBe(400);
    expect(badLanguage.body.code).toBe('invalid_query');
    // A confirmed booking that has ended has nothing to tell either.
    const ended = (await book({ start_at: '2026-01-06T10:00:00+01:00', end_at: '2026-01-06T10:30:00+01:00' })).body;
    expect((await notify(ended.id)).body.code).toBe('nothing_to_notify');
    // Only the one message sent went into the conversation: the refusals wrote nothing.
    await settlesTo(outbound, before + 1);
  });
});
