import { httpHandler, tenantPrincipal } from '../http/handler';
import { SyncTemplatesBody } from './schemas';
import { syncTemplates } from './service';

/** Brings the WhatsApp account's templates and their statuses here from Meta. */
export const handler = httpHandler('templates-sync', { body: SyncTemplatesBody }, async ({ body, principal, now }) => {
  const counts = await syncTemplates(tenantPrincipal(principal).tenant.id, body.channel_account_id, now);
  return { status: 200, body: counts };
});
