import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerResult } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER } from '../../catalog/edge';
import { isOriginSecret } from '../platform/secrets';

/**
 * The API's Lambda authorizer in AWS (lib/api-edge.ts): a request is let through only with the origin
 * secret that CloudFront adds, so nobody reaches the functions around the WAF through the execute-api
 * endpoint. API Gateway refuses a request without the header itself (401, this function is not called)
 * and caches each answer for the header's value, so a valid value costs one call per cache period.
 */
export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerResult> {
  // Payload 2.0 gives header names in lower case.
  const presented = event.headers?.[ORIGIN_VERIFY_HEADER];
  return { isAuthorized: presented !== undefined && presented !== '' && (await isOriginSecret(presented)) };
}
