import { httpHandler } from '../http/handler';
import { RefreshBody } from './schemas';
import { refreshSession } from './session-service';

export const handler = httpHandler('auth-refresh', { body: RefreshBody }, async ({ body, state, now }) => ({
  status: 200,
  headers: { 'Cache-Control': 'no-store' },
  body: await refreshSession(body.refresh_token, state.tenantId, now),
}));
