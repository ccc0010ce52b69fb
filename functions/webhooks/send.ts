import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { RESPONSE_EXCERPT_BYTES, type DeliveryAttempt } from './webhook';
import { allowPrivate, resolveTarget, UnsafeTarget, checkUrlForm } from './ssrf';

/** Keep-alive connections, reused across deliveries to the same host. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export const timeoutMs = () => Number(process.env.WEBHOOK_TIMEOUT_MS ?? 10_000);

/**
 * Each host is resolved and checked once per RESOLVED_FOR_MS, for every delivery to it meanwhile
 * (deliveries that find no answer yet share the lookup under way), rather than once per delivery. The
 * connection still goes to the address that was checked; a refused host is not remembered, so a host
 * whose DNS is fixed is tried again on the next delivery.
 */
const RESOLVED_FOR_MS = 5000;
const resolved = new Map<string, { at: number; target: ReturnType<typeof resolveTarget> }>();

function checkedTarget(url: URL): ReturnType<typeof resolveTarget> {
  // Keyed by the policy too: what passed with private networks allowed is checked again without.
  const host = `${allowPrivate()} ${url.hostname}`;
  const hit = resolved.get(host);
  if (hit && performance.now() - hit.at < RESOLVED_FOR_MS) return hit.target;
  const target = resolveTarget(url);
  const entry = { at: performance.now(), target };
  // Bounded: a worker that delivers to very many hosts starts over rather than growing without end.
  if (resolved.size >= 1000) resolved.clear();
  resolved.set(host, entry);
  target.catch(() => {
    if (resolved.get(host) === entry) resolved.delete(host);
  });
  return target;
}

/**
 * POSTs one signed delivery. The host is resolved and checked here (not only at registration), and the
 * connection goes to the checked address, so DNS rebinding cannot redirect it. Redirects are not
 * followed: only a 2xx succeeds. Never throws: failures become the attempt's `error`.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  now: () => Date,
): Promise<DeliveryAttempt & { ok: boolean }> {
  const started = Date.now();
  const at = now().toISOString();
  const fail = (error: string, status: number | null = null, excerpt: string | null = null) => ({
    ok: false,
    at,
    status_code: status,
    duration_ms: Date.now() - started,
    error,
    response_body: excerpt,
  });
  let target: { address: string; family: 4 | 6 };
  let parsed: URL;
  try {
    parsed = checkUrlForm(url);
    target = await checkedTarget(parsed);
  } catch (error) {
    return fail(error instanceof UnsafeTarget ? `blocked: ${error.message}` : `dns: ${(error as Error).message}`);
  }
  return new Promise((resolve) => {
    const req = request(
      parsed,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'MessagingPlatform-Webhooks/1.0',
        },
        // Connect to the checked address whatever DNS says now. Node asks for `all` when it races
        // address families (happy eyeballs), and then expects a list.
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          opts.all
            ? cb(null, [{ address: target.address, family: target.family }])
            : cb(null, target.address, target.family)) as never,
        signal: AbortSignal.timeout(timeoutMs()),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve({
            ok,
            at,
            status_code: status,
            duration_ms: Date.now() - started,
            error: ok ? null : `HTTP ${status}`,
            response_body: excerpt || null,
          });
        });
        res.on('error', (error) => resolve(fail(`response: ${error.message}`, res.statusCode ?? null)));
      },
    );
    req.on('error', (error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve(fail(timedOut ? `timeout after ${timeoutMs()} ms` : `connection: ${error.message}`));
    });
    req.end(body);
  });
}
