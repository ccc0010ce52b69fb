import * as z from 'zod/mini';
import { lazySchema, trimmed } from '../platform/validation';
import { ATTACHMENT_TYPES } from './media';

export const CreateUploadBody = lazySchema(() =>
  z.strictObject({
    type: z.enum(ATTACHMENT_TYPES),
    mime_type: z.string().check(z.minLength(3), z.maxLength(255), z.regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type')),
    size: z.int().check(z.minimum(1), z.maximum(100 * 1024 * 1024)),
    filename: z.optional(trimmed(1, 240)),
  }),
);
