// A local stand-in for the Stripe API, following Stripe's documented shapes and errors, for the official
// `stripe` client pointed at it (`host`/`port`/`protocol`). Form-encoded requests, `Idempotency-Key`
// replays, `{ error: { type, code, message, param } }` bodies. Keys containing `invalid` are refused (401).
//   GET  /v1/checkout/sessions             list (the key check on connect)
//   POST /v1/checkout/sessions             create (expires_at 30 min to 24 h ahead, else 400)
//   GET  /v1/checkout/sessions/:id         retrieve
//   POST /v1/checkout/sessions/:id/expire  only an open session (else 400 invalid_request_error)
//   POST /v1/refunds                       by payment_intent, never more than the charge (else 400)
// Test controls: POST /__pay/:id completes a session as a paid card would (returns the session);
// GET /__requests returns what it recorded.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

const rid = (prefix) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's bracket notation (`a[b][0][c]=1`) into nested objects and arrays. */
function parseForm(text) {
  const root = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return root;
}

const stripeError = (status, type, message, extra = {}) => ({ status, body: { error: { type, message, ...extra } } });

export function startFakeStripe() {
  const sessions = new Map();
  const intents = new Map();
  const idempotent = new Map();
  const requests = [];

  function handle(method, path, key, body) {
    if (!key || key.includes('invalid'))
      return stripeError(401, 'invalid_request_error', `Invalid API Key provided: ${String(key).slice(0, 12)}****`);
    if (method === 'GET' && path === '/v1/checkout/sessions')
      return {
        status: 200,
        body: {
          object: 'list',
          data: [...sessions.values()].slice(0, 1),
          has_more: false,
          url: '/v1/checkout/sessions',
        },
      };
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = Number(body.expires_at);
      if (!(expiresAt >= now + 1800 - 60 && expiresAt <= now + 86400))
        return stripeError(
          400,
          'invalid_request_error',
          'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
          { param: 'expires_at' },
        );
      const item = body.line_items?.[0]?.price_data;
      const id = rid('cs');
      const session = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: Number(item?.unit_amount),
        currency: item?.currency,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        payment_intent: null,
        expires_at: expiresAt,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        _intent_metadata: body.payment_intent_data?.metadata ?? {},
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (one) {
      const session = sessions.get(one[1]);
      if (!session)
        return stripeError(404, 'invalid_request_error', `No such checkout.session: '${one[1]}'`, {
          code: 'resource_missing',
        });
      if (method === 'GET' && !one[2]) return { status: 200, body: session };
      if (method === 'POST' && one[2]) {
        if (session.status !== 'open')
          return stripeError(
            400,
            'invalid_request_error',
            'Only Checkout Sessions with a status in ["open"] can be expired.',
          );
        session.status = 'expired';
        return { status: 200, body: session };
      }
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(body.payment_intent);
      if (!intent)
        return stripeError(400, 'invalid_request_error', `No such payment_intent: '${body.payment_intent}'`, {
          code: 'resource_missing',
        });
      const amount = Number(body.amount ?? intent.amount - intent.amount_refunded);
      if (intent.amount_refunded + amount > intent.amount)
        return stripeError(
          400,
          'invalid_request_error',
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - intent.amount_refunded})`,
          { code: 'charge_already_refunded' },
        );
      intent.amount_refunded += amount;
      return {
        status: 200,
        body: {
          id: rid('re'),
          object: 'refund',
          amount,
          currency: intent.currency,
          payment_intent: intent.id,
          status: 'succeeded',
          metadata: body.metadata ?? {},
        },
      };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const send = (status, body) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': rid('req') });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/__requests') return send(200, requests);
      const pay = /^\/__pay\/([^/]+)$/.exec(url.pathname);
      if (pay) {
        const session = sessions.get(pay[1]);
        if (!session) return send(404, {});
        const intent = {
          id: rid('pi'),
          amount: session.amount_total,
          currency: session.currency,
          amount_refunded: 0,
          metadata: session._intent_metadata,
        };
        intents.set(intent.id, intent);
        Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
        return send(200, { session, intent });
      }
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const body = parseForm(text);
      requests.push({
        method: req.method,
        path: url.pathname,
        body,
        idempotency_key: req.headers['idempotency-key'] ?? null,
      });
      const idemKey = req.headers['idempotency-key'] ? `${key}\n${req.headers['idempotency-key']}` : undefined;
      if (idemKey && idempotent.has(idemKey)) {
        const saved = idempotent.get(idemKey);
        return send(saved.status, saved.body);
      }
      const out = handle(req.method, url.pathname, key, body);
      if (idemKey && req.method === 'POST') idempotent.set(idemKey, out);
      send(out.status, out.body);
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ server, url: `http://127.0.0.1:${server.address().port}`, sessions, intents }),
    ),
  );
}
