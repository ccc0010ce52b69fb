import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { lambdaContext } from '../../local/context';
import { httpApiEvent } from '../../local/http-event';
import { call, createTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';

/**
 * With private networks not allowed (the production setting), registration refuses every private target.
 * The shared test runtime allows them (its receivers run on this machine), so this calls the very same
 * handler module in this process, with the guard on, against the same DynamoDB Local.
 */
useRuntimeAws();
process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'false';

const event = (tenant: string, key: string, body: unknown): APIGatewayProxyEventV2 =>
  httpApiEvent({
    method: 'POST',
    rawPath: '/api/v1/webhooks',
    routeKey: 'POST /webhooks',
    headers: { 'x-tenant-id': tenant, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it('refuses http, private, loopback, metadata, IPv6 loopback, IPv4-mapped and loopback-resolving hosts with 422', async () => {
  const t = await createTenant();
  const { handler } = await import('../../functions/webhooks/create');
  const register = async (url: string) =>
    await handler(event(t.tenantId, t.apiKey, { url, events: ['*'] }), lambdaContext('webhooks-create'));
  for (const url of [
    'http://example.com/hook',
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost/hook',
  ]) {
    const res = await register(url);
    expect([url, res.statusCode]).toEqual([url, 422]);
    expect(JSON.parse(String(res.body)).code).toBe('unsafe_url');
  }
  expect((await call('GET', '/webhooks', { tenant: t.tenantId, token: t.apiKey })).body.data).toEqual([]);
});
