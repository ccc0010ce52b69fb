import { pageQuery } from '../platform/pagination';
import * as z from 'zod/mini';
import { trimmed, lazySchema } from '../platform/validation';

export const CreateApiKeyBody = lazySchema(() =>
  z.strictObject({
    name: trimmed(1, 100),
    role: z._default(z.enum(['admin', 'agent']), 'admin'),
  }),
);

export const ListApiKeysQuery = lazySchema(() => z.strictObject(pageQuery));
