// Public: message text rules, reused by other features' schemas.
import * as z from 'zod/mini';

/**
 * Any message text, as it may arrive from a customer or be quoted to the AI: only its length is checked.
 * A module of its own, so the AI handlers take this one schema and not every conversation schema.
 */
export const messageText = z.string().check(z.minLength(1), z.maxLength(4096));
