import { connectWhatsApp, isKnownVerifyToken } from '../../functions/channels/store';
import { openConversation } from '../../functions/conversations/service';
import { connectWhatsApp as connectThroughApi, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { laggingReplica } from '../support/dynamo-faults';

/**
 * Decisions that follow a read of the tenant's WhatsApp numbers read them strongly consistent: right
 * after a second number is connected, a replica that has not seen it yet must not make a conversation
 * pick the first number as "the only one", nor refuse Meta's handshake for the new number.
 */
useRuntimeAws();

it('a number connected a moment ago counts at once, for conversations and for the handshake', async () => {
  const t = await createTenant();
  const digits = String(Date.now()).slice(-9);
  await connectThroughApi(t, `1${digits}`);
  const stop = laggingReplica(60_000);
  try {
    const second = `2${digits}`;
    await connectWhatsApp(
      {
        channel: 'whatsapp',
        tenant_id: t.tenantId,
        phone_number_id: second,
        display_phone_number: null,
        waba_id: null,
        status: 'active',
        created_at: new Date().toISOString(),
      },
      { access_token: 'EAAG-token', app_secret: 'secret' },
      `verify-${second}-token`,
    );
    expect(await isKnownVerifyToken(`verify-${second}-token`)).toBe(true);
    // Two numbers now: a conversation that names neither is refused rather than put on the first.
    await expect(
      openConversation(
        t.tenantId,
        { channel: 'whatsapp', customer: { phone: '+491518000777' } },
        { type: 'api_key', id: 'key_test' },
        new Date(),
      ),
    ).rejects.toMatchObject({ code: 'channel_not_connected' });
  } finally {
    stop();
  }
});
