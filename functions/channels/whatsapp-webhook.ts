import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { unauthorized } from '../platform/errors';
import { queueUrl } from '../platform/config';
import { queueBody, sqsClient } from '../platform/queue';
import { whatsAppPlatformApp } from '../platform/secrets';
import { header } from '../http/request-state';
import { httpHandler } from '../http/handler';
import { inboundChunks, validSignature, type WebhookPayload } from './whatsapp';
import { routeWhatsAppNumber } from './store';

/** Meta's payload as sent: whatever it holds is checked item by item later, by the inbound worker. */
const AnyJsonObject = z.looseObject({});

/** Whether the payload was signed by the platform's app or, for numbers connected with their own app, by it. */
async function signedByMeta(rawBody: string, signature: string | undefined, payload: WebhookPayload) {
  const app = await whatsAppPlatformApp();
  if (app && validSignature(rawBody, signature, app.secret)) return true;
  // A tenant's own Meta app signs only its own numbers' payloads: every number must agree.
  const numbers = [...new Set(inboundChunks(payload, Infinity).map((c) => c.phone_number_id))]
    .filter(Boolean)
    .slice(0, 10);
  if (numbers.length === 0) return false;
  const routes = await Promise.all(numbers.map((n) => routeWhatsAppNumber(n)));
  return routes.every((r) => r?.secrets.app_secret && validSignature(rawBody, signature, r.secrets.app_secret));
}

/**
 * Meta's webhook POST. Once its X-Hub-Signature-256 is valid, the answer is always 200 at once: the
 * payload is queued, one message per business number's part (split further when large), and the
 * inbound worker routes each to its tenant, skipping and counting what it cannot use. Anything else
 * would make Meta redeliver a genuine payload for days and then drop it.
 */
export const handler = httpHandler('whatsapp-webhook', { body: AnyJsonObject }, async ({ body, state, event, now }) => {
  const payload = body as WebhookPayload;
  if (!(await signedByMeta(state.rawBody, header(event, 'x-hub-signature-256'), payload))) {
    throw unauthorized('invalid_signature', 'X-Hub-Signature-256 does not match the app secret.');
  }
  const chunks = inboundChunks(payload);
  await Promise.all(
    chunks.map((chunk) =>
      sqsClient().send(
        new SendMessageCommand({
          QueueUrl: queueUrl('whatsappInbound'),
          MessageBody: queueBody({ ...chunk, received_at: now.toISOString() }),
        }),
      ),
    ),
  );
  return { status: 200, body: { queued: chunks.length } };
});
