import { notFound } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { customerRecord, versionOf } from './customer';
import { UpdateCustomerBody } from './schemas';
import { updateCustomer } from './service';

export const handler = httpHandler(
  'customers-update',
  { body: UpdateCustomerBody },
  async ({ params, body, principal, now, event }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const id = params.id ?? '';
    if (!isId('cus', id)) throw notFound('The customer');
    const customer = await updateCustomer(tenantId, id, body, ifMatchVersion(event), now);
    return { status: 200, headers: etag(versionOf(customer)), body: customerRecord(customer) };
  },
);
