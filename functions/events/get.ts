import { httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { getEvent } from './store';

/** One of the tenant's events of the last 30 days, as delivered. */
export const handler = httpHandler('events-get', {}, async ({ params, principal, now }) => {
  const id = params.id ?? '';
  const event = isId('evt', id) ? await getEvent(tenantPrincipal(principal).tenant.id, id, now) : undefined;
  if (!event) throw notFound('The event');
  return { status: 200, body: event };
});
