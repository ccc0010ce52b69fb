import httpCors from '@middy/http-cors';
import httpSecurityHeaders from '@middy/http-security-headers';
import { CORS } from '../../catalog/cors';

/**
 * The security and CORS headers of every response: the handler chain and the `$default` route (unknown
 * paths, wrong methods) use these same middlewares, so both answer with the same headers. Kept free of
 * AWS SDK imports for the `$default` route's small bundle.
 */
export const securityHeaders = () => httpSecurityHeaders();

export const corsHeaders = () =>
  httpCors({
    origins: [...CORS.allowOrigins],
    headers: CORS.allowHeaders.join(','),
    exposeHeaders: CORS.exposeHeaders.join(','),
    methods: CORS.allowMethods.join(','),
    maxAge: String(CORS.maxAgeSeconds),
  });
