import { forbidden } from '../platform/errors';
import { httpHandler } from '../http/handler';
import { VerifyQuery } from './schemas';
import { isKnownVerifyToken } from './store';

/** Meta's subscription handshake: echo hub.challenge when hub.verify_token is one a tenant configured. */
export const handler = httpHandler('whatsapp-webhook-verify', { query: VerifyQuery }, async ({ query }) => {
  const token = query['hub.verify_token'];
  if (query['hub.mode'] !== 'subscribe' || !token || !(await isKnownVerifyToken(token))) {
    throw forbidden('verification_failed', 'The verify token does not match a connected WhatsApp number.');
  }
  return { status: 200, text: query['hub.challenge'] ?? '' };
});
