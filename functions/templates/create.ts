import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateTemplateBody } from './schemas';
import { createTemplate } from './service';

/** A template submitted for review: Meta's for a WhatsApp number, the sandbox's (a short delay) otherwise. */
export const handler = httpHandler(
  'templates-create',
  { body: CreateTemplateBody },
  async ({ body, principal, now }) => {
    const template = await createTemplate(tenantPrincipal(principal).tenant.id, body, now);
    return {
      status: 201,
      headers: { ...etag(template.version), Location: `/api/v1/templates/${template.id}` },
      body: template,
    };
  },
);
