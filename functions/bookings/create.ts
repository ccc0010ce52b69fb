import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isDomainError } from '../platform/domain-error';
import { unprocessable } from '../platform/errors';
import { logger } from '../platform/observability';
import { senderOf } from '../auth/principal';
import { publicBaseUrl } from '../payments/base-url';
import { sendLink } from '../payments/service';
import { CreateBookingBody } from './schemas';
import { createBooking } from './service';

/**
 * Created `confirmed` unless `status: "pending"` is asked for, or `pending_payment` when it is to be paid
 * first (its payment link made with it, and sent into its conversation with `send_payment_link`); 409 if the
 * resource is taken then.
 */
export const handler = httpHandler(
  'bookings-create',
  { body: CreateBookingBody },
  async ({ body, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const { send_payment_link: send, ...input } = body;
    if (send && !input.conversation_id)
      throw unprocessable('payment_without_conversation', 'Name the `conversation_id` to send the payment link into.', [
        { path: 'send_payment_link', message: 'needs `conversation_id`' },
      ]);
    const booking = await createBooking(caller.tenant.id, { ...input, public_base_url: publicBaseUrl(event) }, now);
    // The booking stands either way: a link that could not be sent now (the conversation's window closed) can
    // be sent again with POST /payments/{id}/send.
    if (send && booking.payment)
      await sendLink(caller.tenant.id, booking.payment.id, senderOf(caller), now).catch((error: unknown) => {
        if (!isDomainError(error)) throw error;
        logger.warn("a booking's payment link was not sent", { code: error.code });
      });
    return {
      status: 201,
      headers: { ...etag(booking.version), Location: `/api/v1/bookings/${booking.id}` },
      body: booking,
    };
  },
);
