import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { getPayment } from './store';

export const handler = httpHandler('payments-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const payment = isId('pay', id) ? await getPayment(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!payment) throw notFound('The payment');
  return { status: 200, headers: etag(payment.version), body: payment };
});
