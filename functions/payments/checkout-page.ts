import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { formatAmount, isPaid, type Payment } from './payment';
import { validCheckoutSignature } from './checkout-link';
import { getPayment } from './store';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The payment a signed checkout link names, or 404 (a wrong signature reveals nothing). */
export async function checkoutPayment(params: Record<string, string>, sig: string | undefined): Promise<Payment> {
  const tenantId = params.tenant_id ?? '';
  const id = params.id ?? '';
  const payment =
    isId('pay', id) && (await validCheckoutSignature(tenantId, id, sig)) ? await getPayment(tenantId, id) : undefined;
  if (!payment) throw notFound('The payment');
  return payment;
}

function statusLine(p: Payment): string {
  if (p.status_reason === 'late_payment')
    return 'This link had already closed: your payment has been refunded in full.';
  if (isPaid(p.status)) return p.amount_refunded > 0 ? 'Paid, and refunded in part or in full.' : 'Paid. Thank you!';
  const lines: Record<string, string> = {
    pending: 'Waiting for payment.',
    failed: 'The payment was declined.',
    expired: 'This link has expired.',
    canceled: 'This link was withdrawn.',
  };
  return lines[p.status] ?? p.status;
}

/**
 * The customer's page: what is asked for and where it stands; with the sandbox provider and an open link,
 * Pay and Decline buttons (forms that POST back with the link's signature, no script needed).
 */
export function checkoutPage(p: Payment, sig: string): { status: 200; html: string; headers: Record<string, string> } {
  const action = (what: string) =>
    `/api/v1/payments/checkout/${encodeURIComponent(p.tenant_id)}/${p.id}/${what}?sig=${encodeURIComponent(sig)}`;
  const open = p.status === 'pending' && p.provider === 'sandbox';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment ${escape(formatAmount(p.amount, p.currency))}</title></head>
<body>
<main>
<h1>${escape(p.description ?? (p.purpose === 'deposit' ? 'Deposit' : 'Payment'))}</h1>
<p id="amount">${escape(formatAmount(p.amount, p.currency))}</p>
<p id="status" data-status="${escape(p.status)}">${escape(statusLine(p))}</p>
${
  open
    ? `<p>Sandbox checkout: no money moves.</p>
<form method="post" action="${escape(action('pay'))}"><button type="submit" id="pay">Pay ${escape(formatAmount(p.amount, p.currency))}</button></form>
<form method="post" action="${escape(action('decline'))}"><button type="submit" id="decline">Decline</button></form>
<p>The link expires at ${escape(p.expires_at)}.</p>`
    : ''
}
</main>
</body></html>`;
  return { status: 200, html, headers: { 'Content-Security-Policy': "default-src 'none'; form-action 'self'" } };
}
