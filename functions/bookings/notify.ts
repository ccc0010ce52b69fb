import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { senderOf } from '../auth/principal';
import { NotifyBookingQuery } from './schemas';
import { notifyCustomer } from './notification';

/** 202: the message telling the customer where their booking stands is queued in its conversation. */
export const handler = httpHandler(
  'bookings-notify',
  { query: NotifyBookingQuery },
  async ({ params, query, principal, now }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('bkg', id)) throw notFound('The booking');
    const language = query.language ?? caller.tenant.default_language;
    const message = await notifyCustomer(caller.tenant.id, id, language, senderOf(caller), now);
    return {
      status: 202,
      headers: { Location: `/api/v1/conversations/${message.conversation_id}/messages` },
      body: message,
    };
  },
);
