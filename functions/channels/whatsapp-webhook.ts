import { SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod/mini';
import { unauthorized } from '../platform/errors';
import { queueUrl } from '../platform/config';
import { queueBody, sqsClient } from '../platform/queue';
import { whatsAppPlatformApp } from '../platform/secrets';
import { header } from '../http/request-state';
import { httpHandler } from '../http/handler';
import { TEMPLATE_STATUS_FIELD, inboundChunks, validSignature, type WebhookPayload } from './whatsapp';
import { routeWhatsAppNumber } from './store';

/** Meta's payload as sent: whatever it holds is checked item by item later, by the inbound worker. */
const AnyJsonObject = z.looseObject({});

/**
 * Who signed the payload: the platform's app, or the tenant's own app of every number in it (for numbers
 * connected with their own app); false for neither.
 */
async function signedByMeta(
  rawBody: string,
  signature: string | undefined,
  payload: WebhookPayload,
): Promise<'platform' | 'tenant' | false> {
  const app = await whatsAppPlatformApp();
  if (app && validSignature(rawBody, signature, app.secret)) return 'platform';
  // A tenant's own Meta app signs only its own numbers' payloads: every number must agree.
  const numbers = [...new Set(inboundChunks(payload, Infinity).map((c) => c.phone_number_id))]
    .filter(Boolean)
    .slice(0, 10);
  if (numbers.length === 0) return false;
  const routes = await Promise.all(numbers.map((n) => routeWhatsAppNumber(n)));
  return routes.every((r) => r?.secrets.app_secret && validSignature(rawBody, signature, r.secrets.app_secret))
    ? 'tenant'
    : false;
}

/**
 * Meta's webhook POST. Once its X-Hub-Signature-256 is valid, the answer is always 200 at once: the
 * payload is queued, one message per business number's part (split further when large), and the
 * inbound worker routes each to its tenant, skipping and counting what it cannot use. Anything else
 * would make Meta redeliver a genuine payload for days and then drop it.
 */
export const handler = httpHandler('whatsapp-webhook', { body: AnyJsonObject }, async ({ body, state, event, now }) => {
  const payload = body as WebhookPayload;
  const signer = await signedByMeta(state.rawBody, header(event, 'x-hub-signature-256'), payload);
  if (!signer) throw unauthorized('invalid_signature', 'X-Hub-Signature-256 does not match the app secret.');
  // A template review names no number, only Meta's template id: a tenant's own app could name anyone's,
  // so reviews count only under the platform app's signature (a tenant's own app's templates: sync).
  const chunks = inboundChunks(payload).filter((c) => signer === 'platform' || c.field !== TEMPLATE_STATUS_FIELD);
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
