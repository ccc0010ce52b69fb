import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type ApiError, problemResponse } from './errors';
import { corsHeaders, securityHeaders } from './response-headers';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

/** A handler that answers with the problem `errorFor` picks, with a request id and the API's usual headers. */
export function problemHandler(
  errorFor: (event: Event) => ApiError,
): (event: Event, context: Context) => Promise<Result> {
  return middy<Event, Result>()
    .use(securityHeaders())
    .use(corsHeaders())
    .handler(async (event) => {
      const requestId = event.requestContext?.requestId || randomUUID();
      const response = problemResponse(errorFor(event), requestId);
      return { ...response, headers: { ...response.headers, 'X-Request-Id': requestId } };
    });
}
