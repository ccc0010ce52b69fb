import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { senderOf } from '../auth/principal';
import { sendLink } from './service';

/** 202 with the queued message, as `POST /conversations/{id}/messages` answers. */
export const handler = httpHandler('payments-send', {}, async ({ params, principal, now }) => {
  const caller = tenantPrincipal(principal);
  const id = params.id ?? '';
  if (!isId('pay', id)) throw notFound('The payment');
  const message = await sendLink(caller.tenant.id, id, senderOf(caller), now);
  return { status: 202, body: message };
});
