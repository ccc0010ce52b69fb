// Public: the API's public address for payment links, for bookings.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The API's public base URL, for the links customers open: PUBLIC_API_URL when the deployment sets it (the
 * CloudFront domain), else the host the request came to (the local runtime speaks plain HTTP on loopback).
 */
export function publicBaseUrl(event: APIGatewayProxyEventV2): string {
  const configured = process.env.PUBLIC_API_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const host = headers.host ?? event.requestContext.domainName;
  const local = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host);
  const proto = headers['x-forwarded-proto'] ?? (local ? 'http' : 'https');
  return `${proto}://${host}`;
}
