import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handler, unmatchedRoute } from '../../functions/platform/unmatched-route';
import { ROUTES } from '../../catalog/routes';
import { httpApiEvent } from '../../local/http-event';

/** An API Gateway HTTP API payload 2.0 event for the `$default` route, as API Gateway sends it. */
const defaultRouteEvent = (
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  routeKey = '$default',
) =>
  httpApiEvent({
    method,
    rawPath,
    routeKey,
    headers: { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'user-agent': 'curl/8.5.0', ...headers },
    apiId: 'abc123',
    accountId: '123456789012',
    sourceIp: '203.0.113.7',
    requestId: 'Jk3u1gWvIAMEbXw=',
    now: 1795341600000,
  });

const invoke = (event: APIGatewayProxyEventV2) => handler(event, { awsRequestId: 'lambda-request-id' } as Context);

describe('the $default route (unknown paths and methods)', () => {
  it('serves the problem types\u2019 page, where every problem type points, and PROBLEM_DOCS_URL moves them', async () => {
    const page = await invoke(defaultRouteEvent('GET', '/docs/problems'));
    expect(page.statusCode).toBe(200);
    expect(page.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h2 id="route_not_found">');
    const problem = await invoke(defaultRouteEvent('GET', '/api/v1/nope'));
    expect(JSON.parse(problem.body ?? '').type).toBe('/docs/problems#route_not_found');
    process.env.PROBLEM_DOCS_URL = 'https://docs.example.com/problems';
    try {
      const moved = await invoke(defaultRouteEvent('GET', '/api/v1/nope'));
      expect(JSON.parse(moved.body ?? '').type).toBe('https://docs.example.com/problems#route_not_found');
    } finally {
      delete process.env.PROBLEM_DOCS_URL;
    }
    expect((await invoke(defaultRouteEvent('POST', '/docs/problems'))).statusCode).toBe(404);
  });

  it('answers an unknown path with a 404 problem carrying the request id, and the usual headers', async () => {
    const res = await invoke(defaultRouteEvent('GET', '/api/v1/nope', { origin: 'https://app.example.com' }));
    expect(res.statusCode).toBe(404);
    expect(res.headers?.['Content-Type']).toBe('application/problem+json');
    expect(res.headers?.['X-Request-Id']).toBe('Jk3u1gWvIAMEbXw=');
    expect(res.headers?.['X-Content-Type-Options']).toBe('nosniff');
    expect(res.headers?.['Strict-Transport-Security']).toContain('max-age=');
    expect(res.headers?.['Access-Control-Allow-Origin']).toBe('*');
    expect(res.headers?.['Access-Control-Expose-Headers']).toContain('X-Request-Id');
    expect(JSON.parse(res.body ?? '')).toEqual({
      type: '/docs/problems#route_not_found',
      title: 'Not Found',
      status: 404,
      detail: 'No route matches GET /api/v1/nope.',
      code: 'route_not_found',
      request_id: 'Jk3u1gWvIAMEbXw=',
    });
  });

  it('answers a known path with a wrong method 405, with Allow listing the methods of catalog/routes.ts', async () => {
    const res = await invoke(defaultRouteEvent('PUT', '/v1/bookings/bkg_01M804Z2CKSPWX9H1QTSFQ5EC4'));
    expect(res.statusCode).toBe(405);
    const expected = ROUTES.filter((r) => r.path === '/bookings/{id}').map((r) => r.method);
    expect(res.headers?.Allow?.toString().split(', ').sort()).toEqual([...expected].sort());
    expect(JSON.parse(res.body ?? '')).toMatchObject({
      title: 'Method Not Allowed',
      status: 405,
      code: 'method_not_allowed',
      request_id: 'Jk3u1gWvIAMEbXw=',
    });
  });

  it('answers a malformed path 400', async () => {
    const res = await invoke(defaultRouteEvent('GET', '/api/v1/users/%E0%A4%A'));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body ?? '')).toMatchObject({
      title: 'Bad Request',
      code: 'malformed_path',
      request_id: 'Jk3u1gWvIAMEbXw=',
    });
  });

  it('decides from the method and the raw path alone', () => {
    expect(unmatchedRoute('GET', '/nope').status).toBe(404);
    expect(unmatchedRoute('GET', '/users').status).toBe(404); // no /api/v1 or /v1 prefix
    expect(unmatchedRoute('DELETE', '/api/v1/users').extra.headers).toEqual({ Allow: 'POST, GET' });
    expect(unmatchedRoute('POST', '/api/v1/platform/tenants/x').extra.headers).toEqual({ Allow: 'GET, PATCH' });
    expect(unmatchedRoute('GET', 'api/v1/users').code).toBe('malformed_path');
    expect(unmatchedRoute('GET', '/api/v1/%zz').code).toBe('malformed_path');
  });
});

describe('a route that answers HEAD (its AWS route takes ANY)', () => {
  const anyRouteEvent = (method: string) =>
    defaultRouteEvent(method, '/api/v1/openapi.json', {}, 'ANY /api/v1/openapi.json');
  const openapi = async (method: string) => {
    const { handler: document } = await import('../../functions/docs/openapi');
    return document(anyRouteEvent(method), { awsRequestId: 'lambda-request-id' } as Context);
  };

  it('answers HEAD as GET without a body, with the length of the body GET sends', async () => {
    const get = await openapi('GET');
    const head = await openapi('HEAD');
    expect([get.statusCode, head.statusCode, head.body]).toEqual([200, 200, '']);
    const { 'Content-Length': length, ...headHeaders } = head.headers ?? {};
    expect(length).toBe(String(Buffer.byteLength(String(get.body))));
    expect(headHeaders['Content-Type']).toBe(get.headers?.['Content-Type']);
    expect(headHeaders['Cache-Control']).toBe(get.headers?.['Cache-Control']);
  });

  it('answers any other method as the $default route does: 405 with Allow', async () => {
    for (const method of ['POST', 'DELETE', 'PUT']) {
      const res = await openapi(method);
      expect([method, res.statusCode, res.headers?.Allow]).toEqual([method, 405, 'GET, HEAD']);
      expect(JSON.parse(String(res.body)).code).toBe('method_not_allowed');
    }
  });
});
