import * as z from 'zod/mini';
import { readable } from '../platform/validation';

/**
 * Any message text, as it may arrive from a customer or be quoted to the AI: only its length is checked.
 * A module of its own, so the AI handlers take this one schema and not every conversation schema.
 */
export const messageText = z.string().check(z.minLength(1), z.maxLength(4096));

/**
 * What the business sends a customer (a reply, a note, a saved reply) must be readable: not blank, and
 * `readable` (platform/validation).
 */
export const outboundText = messageText.check(
  // An empty text already fails the minimum length: one error for it, not two.
  z.refine((text) => text === '' || text.trim().length > 0, 'must not be blank'),
  ...readable(),
);
