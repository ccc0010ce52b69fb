import { postWebhook } from '../../functions/webhooks/send';
import { authOf, call, createTenant, type TestTenant } from '../support/api';

/**
 * Webhook targets take port 443 or 1024-65535 only, so attempt logs cannot probe SSH, SMTP and the like
 * on other hosts. The test runtime allows private networks (its receivers run here); the port rule holds
 * all the same.
 */
let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const register = (url: string) =>
  call('POST', '/webhooks', { ...authOf(t), body: { url, events: ['*'], is_active: false } });

describe('webhook ports', () => {
  it.each([
    'https://8.8.8.8:22/',
    'https://example.com:25/hook',
    'https://localhost:1/hook',
    'https://localhost:80/hook',
    'https://localhost:1023/hook',
  ])('refuses %s at registration with 422 unsafe_url', async (url) => {
    const res = await register(url);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unsafe_url');
    expect(res.body.detail).toMatch(/^Port \d+ is not accepted: use 443/);
    expect(res.body.errors).toEqual([{ path: 'url', message: res.body.detail }]);
  });

  it('accepts the default port, 443 and high ports, and refuses a low one on update', async () => {
    for (const url of [
      'https://localhost/hook',
      'https://localhost:443/hook',
      'https://localhost:1024/hook',
      'https://localhost:65535/hook',
    ]) {
      expect([url, (await register(url)).status]).toEqual([url, 201]);
    }
    const created = (await register('https://localhost:8443/hook')).body;
    const moved = await call('PATCH', `/webhooks/${created.id}`, {
      ...authOf(t),
      body: { url: 'https://localhost:22/hook' },
    });
    expect([moved.status, moved.body.code]).toEqual([422, 'unsafe_url']);
    expect((await call('GET', `/webhooks/${created.id}`, authOf(t))).body.url).toBe('https://localhost:8443/hook');
  });

  it('refuses a low port again at delivery, before connecting', async () => {
    const attempt = await postWebhook('https://127.0.0.1:22/hook', '{}', {}, () => new Date());
    expect(attempt.ok).toBe(false);
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/^blocked: Port 22 is not accepted/);
  });
});
