import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { VIEWER_IP_HEADER } from '../../catalog/edge';
import { header } from './request-state';

/**
 * The caller's address. Behind CloudFront (`VIEWER_IP_FROM_EDGE=true`, set by lib/api-edge.ts) the
 * connection comes from CloudFront, so the viewer's address is taken from the header a CloudFront
 * Function writes on every request (replacing any the viewer sent; only requests carrying the origin
 * secret get here). Otherwise, and locally, the connection's address.
 */
export function clientIp(event: APIGatewayProxyEventV2): string {
  if (process.env.VIEWER_IP_FROM_EDGE === 'true') {
    const viewer = header(event, VIEWER_IP_HEADER)?.trim();
    if (viewer) return viewer;
  }
  return event.requestContext.http.sourceIp;
}
