// Public: outbound text rules, reused by saved replies.
import * as z from 'zod/mini';
import { readable } from '../platform/validation';
import { messageText } from './message-text';

/**
 * What the business sends a customer (a reply, a note, a saved reply) must be readable: not blank, and
 * `readable` (platform/validation). A module apart from messageText, which the AI handlers take alone.
 */
export const outboundText = messageText.check(
  // An empty text already fails the minimum length: one error for it, not two.
  z.refine((text) => text === '' || text.trim().length > 0, 'must not be blank'),
  ...readable(),
);
