import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { getTemplate } from './store';

export const handler = httpHandler('templates-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const template = isId('tpl', id) ? await getTemplate(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!template) throw notFound('The template');
  return { status: 200, headers: etag(template.version), body: template };
});
