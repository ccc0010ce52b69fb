import * as z from 'zod/mini';
import { badRequest, notFound } from '../platform/errors';
import { header } from '../http/request-state';
import { httpHandler } from '../http/handler';
import { verifyStripeEvent } from './providers';
import { applyStripeEvent } from './stripe-events';
import { getStripeSecrets } from './store';

/** Stripe's payload as sent: only its verified signature makes it an event. */
const AnyJsonObject = z.looseObject({});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Stripe's events for one tenant, at its own path: verified with `stripe.webhooks.constructEvent` on the raw
 * body (the middleware decodes API Gateway's base64 body first) with that tenant's signing secret, and
 * answered 200 once applied. A forged or stale signature is 400 and changes nothing.
 */
export const handler = httpHandler(
  'payments-stripe-webhook',
  { body: AnyJsonObject },
  async ({ params, state, event, now }) => {
    const tenantId = params.tenant_id ?? '';
    const secrets = UUID.test(tenantId) ? await getStripeSecrets(tenantId) : undefined;
    if (!secrets) throw notFound('A Stripe connection at this path');
    let verified;
    try {
      verified = await verifyStripeEvent(state.rawBody, header(event, 'stripe-signature'), secrets.webhook_secret);
    } catch {
      throw badRequest(
        'invalid_signature',
        'Stripe-Signature does not verify with this endpoint\u2019s signing secret, or is too old.',
      );
    }
    const outcome = await applyStripeEvent(tenantId.toLowerCase(), verified, now);
    return { status: 200, body: { received: true, outcome } };
  },
);
