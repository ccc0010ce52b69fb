import { httpHandler } from '../platform/http';
import { RefreshBody } from './schemas';
import { refreshSession } from './sessions';

export const handler = httpHandler('auth-refresh', { body: RefreshBody }, async ({ body, state, now }) => ({
  status: 200,
  headers: { 'Cache-Control': 'no-store' },
  body: await refreshSession(body.refresh_token, state.tenantId, now),
}));
