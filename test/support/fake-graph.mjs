// A local stand-in for the WhatsApp Cloud API's POST /{phone_number_id}/messages. It checks each
// request's shape, records it, and answers according to the phone_number_id:
//   50xxxx: 500 twice, then success      42xxxx: 429 once (Retry-After: 1), then success
//   40xxxx: 400 permanent error          59xxxx: accepted, but the answer never comes (a sender that
//   anything else: success                         dies while waiting for it has handed the message over)
// GET /__requests returns what it recorded, so tests in other processes can inspect it.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

export function startFakeGraph() {
  const requests = [];
  const attempts = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/__requests') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify(requests));
      }
      // GET /{phone_number_id}: the token must be the one minted for that number (EAAG-token-<id>).
      const lookup = /^\/v\d+\.\d+\/(\d+)(\?.*)?$/.exec(req.url ?? '');
      if (req.method === 'GET' && lookup) {
        const ok = req.headers.authorization === `Bearer EAAG-token-${lookup[1]}`;
        res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
        return res.end(
          JSON.stringify(
            ok
              ? { id: lookup[1], display_phone_number: '+1 555 000 1111' }
              : { error: { code: 190, message: 'Invalid OAuth access token' } },
          ),
        );
      }
      const match = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(req.url ?? '');
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const problems = [];
      if (req.method !== 'POST' || !match) problems.push('not POST /vX.Y/{phone_number_id}/messages');
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) problems.push('missing bearer token');
      if (
        body?.messaging_product !== 'whatsapp' ||
        body?.type !== 'text' ||
        typeof body?.text?.body !== 'string' ||
        !/^\d{8,15}$/.test(body?.to ?? '')
      )
        problems.push('bad message body');
      const phoneNumberId = match?.[1] ?? '';
      requests.push({ phone_number_id: phoneNumberId, authorization: req.headers.authorization, body, problems });
      const reply = (status, json, headers = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (problems.length) return reply(400, { error: { code: 100, message: problems.join('; ') } });
      const key = `${phoneNumberId}:${body.text.body}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      if (phoneNumberId.startsWith('50') && n <= 2)
        return reply(500, { error: { code: 1, message: 'temporarily unavailable' } });
      // Longer than one attempt's in-process retries (three calls): the send is retried from the queue.
      if (phoneNumberId.startsWith('53') && n <= 3)
        return reply(503, { error: { code: 2, message: 'service unavailable' } });
      if (phoneNumberId.startsWith('42') && n <= 1)
        return reply(429, { error: { code: 4, message: 'rate limited' } }, { 'Retry-After': '1' });
      if (phoneNumberId.startsWith('59')) return;
      if (phoneNumberId.startsWith('40'))
        return reply(400, { error: { code: 131026, message: 'Message undeliverable' } });
      return reply(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${randomUUID()}` }],
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })),
  );
}
