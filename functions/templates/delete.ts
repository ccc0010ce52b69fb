import { httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { removeTemplate } from './service';

export const handler = httpHandler('templates-delete', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  if (!isId('tpl', id)) throw notFound('The template');
  await removeTemplate(tenantPrincipal(principal).tenant.id, id);
  return { status: 204 };
});
