// The fault proxy and the HTTPS webhook receiver that the three SDK suites share: started once by the
// runner (run-all.mjs, or with-runtime.mjs / the TypeScript suite's test/run.mjs when a suite runs alone)
// and handed to each suite as SDK_FAULT_PROXY_URL and SDK_WEBHOOK_RECEIVER_URL. Each test makes its own
// proxy or receiver (a path prefix with its own script and records) through a small JSON control API on
// the proxy's address, so concurrent tests never see each other's requests:
//
//   POST   /_control/proxies                 {script?, otherwise?} → {id, url}; url = <proxy>/proxies/<id>
//   PUT    /_control/proxies/:id/script      {script?, otherwise?}  what the next requests get, by arrival index
//   GET    /_control/proxies/:id/requests    the requests since the last reset, with their outcome
//   DELETE /_control/proxies/:id/requests    reset (arrival indexes start again at 0)
//   DELETE /_control/proxies/:id
//   POST   /_control/receivers               {status?, body?, headers?, delayMs?} → {id, url}; url = <receiver>/receivers/<id>
//   PUT    /_control/receivers/:id/behaviour {status, body?, headers?, delayMs?}  the answer to deliveries from now on
//   GET    /_control/receivers/:id/received  the deliveries so far
//   DELETE /_control/receivers/:id
//
// An action is {kind: "forward"} (to the runtime and back), {kind: "drop"} (forward, wait for the whole
// answer, then cut the client's connection: a lost response), {kind: "respond", status, headers?, body?}
// (answer without the runtime; a body is sent as problem+json) or {kind: "delay", ms} (wait, then forward).
// Request i gets script[i], else `otherwise`, else forward.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);
const FORWARD = { kind: 'forward' };

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const sendJson = (res, status, value) => {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

const close = (server) =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Starts both servers in front of the runtime at `target` (its origin), the receiver with the test CA's
 * certificate `tls` ({key, cert} PEM files). Returns their addresses as environment variables, and close().
 */
export async function startTestServers({ target, tls }) {
  const proxies = new Map();
  const receivers = new Map();

  async function proxied(req, res, proxy, path) {
    const body = await readBody(req);
    const entry = { method: req.method, path, headers: req.headers, body: body.toString('utf8'), at: Date.now() };
    const index = proxy.seen.push(entry) - 1;
    const action = proxy.script[index] ?? proxy.otherwise ?? FORWARD;
    if (action.kind === 'respond') {
      entry.status = action.status;
      const text = action.body === undefined ? '' : JSON.stringify(action.body);
      res.writeHead(action.status, { 'Content-Type': 'application/problem+json', ...action.headers });
      res.end(text);
      return;
    }
    if (action.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, action.ms));
    if (res.destroyed) return; // the client gave up while we waited (a timeout test)
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    try {
      const upstream = await fetch(`${target}${path}`, {
        method: req.method,
        headers,
        body: body.length ? body : undefined,
      });
      const text = await upstream.text();
      entry.status = upstream.status;
      entry.response_headers = Object.fromEntries(upstream.headers);
      if (action.kind === 'drop') {
        req.socket.destroy(); // the runtime acted; the client never hears of it
        return;
      }
      const out = {};
      upstream.headers.forEach((value, name) => {
        if (!HOP_HEADERS.has(name) && name !== 'content-encoding') out[name] = value;
      });
      res.writeHead(upstream.status, out);
      res.end(text);
    } catch (error) {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    }
  }

  async function control(req, res, parts) {
    const [kind, id, what] = parts;
    const input = req.method === 'POST' || req.method === 'PUT' ? JSON.parse((await readBody(req)).toString() || '{}') : {};
    if (kind === 'proxies') {
      if (req.method === 'POST' && !id) {
        const made = randomUUID();
        proxies.set(made, { seen: [], script: input.script ?? [], otherwise: input.otherwise });
        return sendJson(res, 201, { id: made, url: `${proxyUrl}/proxies/${made}` });
      }
      const proxy = proxies.get(id);
      if (!proxy) return sendJson(res, 404, { error: `no proxy ${id}` });
      if (req.method === 'PUT' && what === 'script') {
        proxy.script = input.script ?? [];
        proxy.otherwise = input.otherwise;
        return sendJson(res, 204);
      }
      if (req.method === 'GET' && what === 'requests') return sendJson(res, 200, proxy.seen);
      if (req.method === 'DELETE' && what === 'requests') {
        proxy.seen = [];
        return sendJson(res, 204);
      }
      if (req.method === 'DELETE' && !what) {
        proxies.delete(id);
        return sendJson(res, 204);
      }
    }
    if (kind === 'receivers') {
      if (req.method === 'POST' && !id) {
        const made = randomUUID();
        receivers.set(made, { received: [], behaviour: { status: 200, body: 'ok', ...input } });
        return sendJson(res, 201, { id: made, url: `${receiverUrl}/receivers/${made}` });
      }
      const receiver = receivers.get(id);
      if (!receiver) return sendJson(res, 404, { error: `no receiver ${id}` });
      if (req.method === 'PUT' && what === 'behaviour') {
        receiver.behaviour = input;
        return sendJson(res, 204);
      }
      if (req.method === 'GET' && what === 'received') return sendJson(res, 200, receiver.received);
      if (req.method === 'DELETE' && !what) {
        receivers.delete(id);
        return sendJson(res, 204);
      }
    }
    return sendJson(res, 404, { error: `no control route ${req.method} ${req.url}` });
  }

  const proxyServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === '_control') return void control(req, res, parts.slice(1)).catch((error) => sendJson(res, 400, { error: String(error) }));
    const proxy = parts[0] === 'proxies' ? proxies.get(parts[1]) : undefined;
    // A closed or unknown proxy: no answer at all, as from a dead port.
    if (!proxy) return void req.socket.destroy();
    const path = req.url.slice(`/proxies/${parts[1]}`.length) || '/';
    void proxied(req, res, proxy, path);
  });

  const receiverServer = createHttpsServer(
    { key: readFileSync(tls.key), cert: readFileSync(tls.cert) },
    async (req, res) => {
      const body = (await readBody(req)).toString('utf8');
      const [, kind, id, ...rest] = (req.url ?? '/').split('/');
      const receiver = kind === 'receivers' ? receivers.get(id) : undefined;
      if (!receiver) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return void res.end('no such receiver');
      }
      receiver.received.push({ path: `/${rest.join('/')}`, headers: req.headers, body, at: Date.now() });
      const answer = receiver.behaviour;
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    },
  );

  const proxyUrl = `http://127.0.0.1:${await listen(proxyServer)}`;
  const receiverUrl = `https://localhost:${await listen(receiverServer)}`;
  return {
    env: { SDK_FAULT_PROXY_URL: proxyUrl, SDK_WEBHOOK_RECEIVER_URL: receiverUrl },
    close: () => Promise.all([close(proxyServer), close(receiverServer)]),
  };
}

/** Starts the servers in front of the runtime that TEST_RUNTIME_FILE describes. */
export function startTestServersForRuntime(runtimeFile = process.env.TEST_RUNTIME_FILE) {
  const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8'));
  return startTestServers({ target: runtime.url, tls: runtime.tls });
}
