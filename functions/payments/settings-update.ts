import { httpHandler, tenantPrincipal } from '../http/handler';
import { nonEmptyPatch } from '../platform/validation';
import { UpdateSettingsBody } from './schemas';
import { updateSettings } from './settings-service';

export const handler = httpHandler(
  'payments-settings-update',
  { body: nonEmptyPatch(UpdateSettingsBody) },
  async ({ body, principal, now }) => ({
    status: 200,
    body: await updateSettings(tenantPrincipal(principal).tenant.id, body, now),
  }),
);
