import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { RefundBody } from './schemas';
import { refundPayment } from './service';

/** Admins only (the route table): money leaves the tenant's account. */
export const handler = httpHandler(
  'payments-refund',
  { body: RefundBody },
  async ({ params, body, principal, now }) => {
    const id = params.id ?? '';
    if (!isId('pay', id)) throw notFound('The payment');
    const payment = await refundPayment(tenantPrincipal(principal).tenant.id, id, body.amount, now);
    return { status: 200, headers: etag(payment.version), body: payment };
  },
);
