import { timingSafeEqual, createHash } from 'node:crypto';
import { forbidden } from '../platform/errors';
import { httpHandler } from '../http/handler';
import { VerifyQuery } from './schemas';
import { isKnownVerifyToken } from './store';

const digest = (s: string) => createHash('sha256').update(s).digest();
/** The platform app's verify token (WHATSAPP_VERIFY_TOKEN), compared in constant time. */
const isPlatformVerifyToken = (token: string) => {
  const expected = process.env.WHATSAPP_VERIFY_TOKEN;
  return !!expected && timingSafeEqual(digest(token), digest(expected));
};

/**
 * Meta's subscription handshake: echo hub.challenge when hub.verify_token is the platform app's, or one
 * a tenant configured for its own app.
 */
export const handler = httpHandler('whatsapp-webhook-verify', { query: VerifyQuery }, async ({ query }) => {
  const token = query['hub.verify_token'];
  if (
    query['hub.mode'] !== 'subscribe' ||
    !token ||
    !(isPlatformVerifyToken(token) || (await isKnownVerifyToken(token)))
  ) {
    throw forbidden(
      'verification_failed',
      'The verify token does not match this platform\u2019s or a connected number\u2019s.',
    );
  }
  return { status: 200, text: query['hub.challenge'] ?? '' };
});
