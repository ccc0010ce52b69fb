/**
 * The dashboard's Content-Security-Policy, sent by the local runtime and by the CloudFront distribution:
 * its own files only, and API calls to its own origin plus the API's origin when that differs, and the
 * realtime WebSocket API (its own origin: another port locally, another host in AWS), and the media store
 * when given (messages' files are shown from, and uploaded to, its presigned URLs).
 * Cloudscape's global styles embed their fonts as data: URLs, hence font-src data:; it needs no inline
 * script or style, so neither is allowed.
 */
export const dashboardContentSecurityPolicy = (
  apiOrigin?: string,
  realtimeUrl?: string,
  mediaOrigin?: string,
): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${mediaOrigin ? ` ${mediaOrigin}` : ''}`,
    ...(mediaOrigin ? [`media-src 'self' ${mediaOrigin}`] : []),
    "font-src 'self' data:",
    `connect-src 'self'${apiOrigin ? ` ${apiOrigin}` : ''}${realtimeUrl ? ` ${realtimeUrl}` : ''}${mediaOrigin ? ` ${mediaOrigin}` : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
