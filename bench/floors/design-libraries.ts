/**
 * A reference beside the handler-load floor (`npm run bench`): the DynamoDB clients and the libraries the
 * design names for every handler that each handler loads at start (Powertools Logger, zod, middy with its
 * CORS and security-header middlewares), each used the least a handler does at load. What a route takes
 * beyond this is the project's own code; what this takes beyond the floor, no route can avoid. (jose, the
 * design's fourth, is beside the bundles, loaded by the first session token: catalog/bundling.ts.)
 */
import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import httpCors from '@middy/http-cors';
import httpSecurityHeaders from '@middy/http-security-headers';
import * as z from 'zod/mini';

export { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

export const logger = new Logger({ serviceName: 'bench' });
export const schema = z.object({ text: z.string(), limit: z.optional(z.number()) });
export const handler = middy(async () => ({ statusCode: 200 }))
  .use(httpSecurityHeaders())
  .use(httpCors());
