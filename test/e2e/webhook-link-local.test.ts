import { postWebhook } from '../../functions/webhooks/send';
import { authOf, call, createTenant, type TestTenant } from '../support/api';

/**
 * The test runtime allows private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: its receivers run on
 * this machine), as development does. Link-local addresses and cloud metadata services stay refused, in
 * every form, at registration and at delivery: they hand out the host's credentials.
 */
let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const register = (url: string) =>
  call('POST', '/webhooks', { ...authOf(t), body: { url, events: ['*'], is_active: false } });

const REFUSED = [
  'https://169.254.169.254/latest/meta-data/',
  'https://169.254.169.254:8443/',
  'https://169.254.1.1:8443/hook',
  'https://[fd00:ec2::254]/latest/meta-data/',
  'https://[fe80::1]:8443/hook',
  'https://[::ffff:169.254.169.254]/hook',
  'https://[::ffff:a9fe:1]:8443/hook',
  'https://[64:ff9b::a9fe:a9fe]/hook',
  'https://[2002:a9fe:a9fe::1]/hook',
  'https://100.100.100.200/latest/meta-data/',
];

describe('link-local and metadata targets with private networks allowed', () => {
  it.each(REFUSED)('refuses %s at registration with 422 unsafe_url', async (url) => {
    const res = await register(url);
    expect([res.status, res.body.code]).toEqual([422, 'unsafe_url']);
    expect(res.body.detail).toMatch(/link-local or cloud metadata address, which is never a webhook target/);
    expect(res.body.errors).toEqual([{ path: 'url', message: res.body.detail }]);
  });

  it('still accepts loopback and private targets, and refuses moving one to the metadata address', async () => {
    const created = await register('https://127.0.0.1:8443/hook');
    expect(created.status).toBe(201);
    expect((await register('https://10.1.2.3:8443/hook')).status).toBe(201);
    const moved = await call('PATCH', `/webhooks/${created.body.id}`, {
      ...authOf(t),
      body: { url: 'https://169.254.169.254/latest/meta-data/' },
    });
    expect([moved.status, moved.body.code]).toEqual([422, 'unsafe_url']);
    expect((await call('GET', `/webhooks/${created.body.id}`, authOf(t))).body.url).toBe('https://127.0.0.1:8443/hook');
  });

  it('refuses them again at delivery, before connecting (an endpoint stored before the rule, a host that rebinds)', async () => {
    const before = process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
    try {
      for (const url of REFUSED) {
        const attempt = await postWebhook(url, '{}', {}, () => new Date());
        expect([url, attempt.ok, attempt.status_code]).toEqual([url, false, null]);
        expect(attempt.error).toMatch(/^blocked: .*link-local or cloud metadata address/);
      }
    } finally {
      if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = before;
    }
  });
});
