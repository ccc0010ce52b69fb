/**
 * The media bucket's CORS rule, played for the S3 emulator (which has none). The dashboard, served by the
 * local gateway on another port, PUTs files to presigned upload URLs and shows them from presigned download
 * URLs; as a bucket's CORS rule would, this answers the browser's preflights and names the allowed origin on
 * every response. Only loopback pages are allowed: the emulator itself listens on loopback only.
 */

/** The part of the emulator's (Fastify) server this uses. */
export interface HookableServer {
  addHook(
    name: 'onRequest',
    hook: (
      request: { method: string; headers: Record<string, string | string[] | undefined> },
      reply: Reply,
      done: () => void,
    ) => void,
  ): unknown;
}

interface Reply {
  header(name: string, value: string): Reply;
  code(status: number): Reply;
  send(): unknown;
}

const LOOPBACK_ORIGIN = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

export function allowLoopbackMediaCors(app: HookableServer): void {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !LOOPBACK_ORIGIN.test(origin)) return done();
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', 'ETag');
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return done();
    reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'GET, HEAD, PUT')
      .header(
        'Access-Control-Allow-Headers',
        String(request.headers['access-control-request-headers'] ?? 'Content-Type'),
      )
      .header('Access-Control-Max-Age', '600')
      .send();
  });
}
