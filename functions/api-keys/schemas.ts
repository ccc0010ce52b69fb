import { pageQuery } from '../platform/pagination';
import * as z from 'zod/mini';
import { trimmed } from '../platform/validation';

export const CreateApiKeyBody = z.strictObject({
  name: trimmed(1, 100),
  role: z._default(z.enum(['admin', 'agent']), 'admin'),
});

export const ListApiKeysQuery = z.strictObject(pageQuery);
