import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { deleteEndpoint } from './store';

/** Deleting an endpoint stops its pending retries; its delivery history stays readable. */
export const handler = httpHandler('webhooks-delete', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  if (!isId('whk', id) || !(await deleteEndpoint(tenantPrincipal(principal).tenant.id, id))) throw notFound('The webhook');
  return { status: 204 };
});
