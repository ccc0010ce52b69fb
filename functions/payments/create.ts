import { httpHandler, tenantPrincipal } from '../http/handler';
import { senderOf } from '../auth/principal';
import { publicBaseUrl } from './base-url';
import { CreatePaymentBody } from './schemas';
import { createPayment } from './service';

/** 201 with the payment and its link; `send: true` also sends the link into the conversation. */
export const handler = httpHandler(
  'payments-create',
  { body: CreatePaymentBody },
  async ({ body, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const created = await createPayment(caller.tenant.id, body, senderOf(caller), publicBaseUrl(event), now);
    return {
      status: 201,
      headers: { Location: `/api/v1/payments/${created.payment.id}` },
      body: created,
    };
  },
);
