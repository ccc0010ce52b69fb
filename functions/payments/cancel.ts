import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { cancelPayment } from './service';

export const handler = httpHandler('payments-cancel', {}, async ({ params, principal, now }) => {
  const id = params.id ?? '';
  if (!isId('pay', id)) throw notFound('The payment');
  const payment = await cancelPayment(tenantPrincipal(principal).tenant.id, id, now);
  return { status: 200, headers: etag(payment.version), body: payment };
});
