import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { customerRecord, versionOf } from './customer';
import { getCustomer } from './store';

export const handler = httpHandler('customers-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const customer = isId('cus', id) ? await getCustomer(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!customer) throw notFound('The customer');
  return { status: 200, headers: etag(versionOf(customer)), body: customerRecord(customer) };
});
