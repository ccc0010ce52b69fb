/**
 * The API stage's access-log line, one per request: the Common Log Format (client, time, request line,
 * status, bytes) followed by API Gateway's request id, which the handler's own `request` log record also
 * carries (with the route and the tenant), and the response latency in ms. Only HTTP API variables: CDK's
 * default for an HTTP stage names REST-only ones that log as "-", such as the resource path.
 *
 * The CDK stack configures the stage with it (lib/stateless-stack.ts) and `npm run bench` prices each
 * request's line by rendering it with that request's values.
 */
export const ACCESS_LOG_FORMAT =
  '$context.identity.sourceIp - - [$context.requestTime] "$context.httpMethod $context.path $context.protocol" ' +
  '$context.status $context.responseLength $context.requestId $context.responseLatency';

/** The line API Gateway would write, from the variables' values (without `$context.`); missing ones log as "-". */
export const renderAccessLog = (values: Record<string, string | number | undefined>): string =>
  ACCESS_LOG_FORMAT.replace(/\$context\.([\w.]+)/g, (_, name: string) => String(values[name] ?? '-'));
