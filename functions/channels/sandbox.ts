import { randomUUID } from 'node:crypto';

/**
 * The sandbox channel's simulated provider: it accepts every message and then reports `delivered` and
 * `read`, which the send worker applies through the same receipt code as WhatsApp's status webhooks.
 * Text containing "[fail]" is rejected, so failure handling can be tried too.
 */
export function sandboxSend(
  text: string,
): { ok: true; providerId: string; receipts: ('delivered' | 'read')[] } | { ok: false; code: string; message: string } {
  if (text.includes('[fail]'))
    return {
      ok: false,
      code: 'sandbox_rejected',
      message: 'The sandbox provider rejected the message ("[fail]" in the text).',
    };
  return { ok: true, providerId: `sbx_${randomUUID()}`, receipts: ['delivered', 'read'] };
}
