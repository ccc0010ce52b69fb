/** CORS settings shared by the middleware, the CDK HTTP API preflight config and the local gateway. */
export const CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'X-Tenant-ID', 'Idempotency-Key', 'If-Match'],
  exposeHeaders: [
    'ETag',
    'Location',
    'Retry-After',
    'X-Request-Id',
    'Idempotent-Replayed',
    'RateLimit',
    'RateLimit-Policy',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
  ],
  maxAgeSeconds: 600,
} as const;
