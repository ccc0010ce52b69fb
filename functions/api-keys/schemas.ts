import { z } from 'zod';
import { pageQuery } from '../platform/pagination';

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  role: z.enum(['admin', 'agent']).default('admin'),
});

export const ListApiKeysQuery = z.strictObject(pageQuery);
