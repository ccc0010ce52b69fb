import { clientIp } from '../../functions/http/client-ip';
import { handler } from '../../functions/http/origin-authorizer';
import { ORIGIN_VERIFY_HEADER, VIEWER_IP_HEADER } from '../../catalog/edge';
import { httpApiAuthorizerEvent, httpApiEvent } from '../../local/http-event';

/** An HTTP API REQUEST authorizer event (payload 2.0) for a login through CloudFront. */
const authorizerEvent = (headers: Record<string, string>) =>
  httpApiAuthorizerEvent({
    method: 'POST',
    rawPath: '/api/v1/auth/login',
    routeKey: 'POST /api/v1/auth/login',
    headers: { host: 'abc123.execute-api.eu-central-1.amazonaws.com', 'user-agent': 'Amazon CloudFront', ...headers },
    apiId: 'abc123',
    accountId: '123456789012',
    sourceIp: '130.176.0.1',
    requestId: 'Jk3u1gWvIAMEbXw=',
    now: 1795341600000,
  });

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['ORIGIN_SECRET', 'ORIGIN_SECRET_PREVIOUS', 'ORIGIN_SECRET_SECRET_ARN', 'VIEWER_IP_FROM_EDGE'])
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe('the origin authorizer (only requests that came through CloudFront)', () => {
  beforeEach(() => {
    process.env.ORIGIN_SECRET = 'current-9f2c1e7a5b3d4f60a8e2';
  });

  it('lets through the current secret only: a wrong, empty or missing value is refused', async () => {
    const authorize = async (headers: Record<string, string>) => (await handler(authorizerEvent(headers))).isAuthorized;
    expect(await authorize({ [ORIGIN_VERIFY_HEADER]: 'current-9f2c1e7a5b3d4f60a8e2' })).toBe(true);
    expect(await authorize({ [ORIGIN_VERIFY_HEADER]: 'current-9f2c1e7a5b3d4f60a8e' })).toBe(false);
    expect(await authorize({ [ORIGIN_VERIFY_HEADER]: 'current-9f2c1e7a5b3d4f60a8e2x' })).toBe(false);
    expect(await authorize({ [ORIGIN_VERIFY_HEADER]: '' })).toBe(false);
    expect(await authorize({})).toBe(false);
    // The value under another header name counts for nothing.
    expect(await authorize({ 'x-origin-secret': 'current-9f2c1e7a5b3d4f60a8e2' })).toBe(false);
  });

  it('keeps accepting the previous secret during a rotation, until CloudFront sends the new one', async () => {
    process.env.ORIGIN_SECRET = 'rotated-1d5e8c0b7a2f4e93c6d1';
    process.env.ORIGIN_SECRET_PREVIOUS = 'current-9f2c1e7a5b3d4f60a8e2';
    const authorize = async (value: string) =>
      (await handler(authorizerEvent({ [ORIGIN_VERIFY_HEADER]: value }))).isAuthorized;
    expect(await authorize('current-9f2c1e7a5b3d4f60a8e2')).toBe(true);
    expect(await authorize('rotated-1d5e8c0b7a2f4e93c6d1')).toBe(true);
    expect(await authorize('older-000000000000000000000')).toBe(false);
  });
});

describe('the client address the login guard counts', () => {
  const event = (headers: Record<string, string>) =>
    httpApiEvent({ method: 'POST', rawPath: '/api/v1/auth/login', headers, sourceIp: '130.176.0.1' });

  it('is the connection’s address unless the API runs behind CloudFront (locally a viewer cannot choose it)', () => {
    delete process.env.VIEWER_IP_FROM_EDGE;
    expect(clientIp(event({ [VIEWER_IP_HEADER]: '198.51.100.23' }))).toBe('130.176.0.1');
  });

  it('is the viewer’s address that CloudFront passes on behind CloudFront, the connection’s without it', () => {
    process.env.VIEWER_IP_FROM_EDGE = 'true';
    expect(clientIp(event({ [VIEWER_IP_HEADER]: '198.51.100.23' }))).toBe('198.51.100.23');
    expect(clientIp(event({ [VIEWER_IP_HEADER]: '2001:db8::7' }))).toBe('2001:db8::7');
    expect(clientIp(event({}))).toBe('130.176.0.1');
  });
});
