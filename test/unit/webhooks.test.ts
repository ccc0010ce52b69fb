import { Webhook } from 'standardwebhooks';
import { checkUrlForm, isLinkLocalOrMetadata, isPublicAddress, UnsafeTarget } from '../../functions/webhooks/ssrf';
import {
  DEFAULT_RETRY_DELAYS,
  DEFAULT_SWEEP_GRACE_SECONDS,
  activeSecrets,
  endpointRecord,
  deliveryBody,
  deliveryId,
  newSecret,
  retryDelays,
  sign,
  subscribes,
  sweepAction,
  sweepGraceSeconds,
} from '../../functions/webhooks/webhook';

describe('retry schedule', () => {
  it('is exactly 1, 5, 25, 125 and 625 seconds by default', () => {
    expect(DEFAULT_RETRY_DELAYS).toEqual([1, 5, 25, 125, 625]);
    expect(retryDelays(undefined)).toEqual([1, 5, 25, 125, 625]);
    expect(retryDelays('1,1,2')).toEqual([1, 1, 2]);
    expect(retryDelays('1,x')).toEqual([1, 5, 25, 125, 625]);
    expect(retryDelays('901')).toEqual([1, 5, 25, 125, 625]);
  });
});

describe('signatures', () => {
  it('are accepted by the public Standard Webhooks verifier, one per active secret', () => {
    const [a, b] = [newSecret(), newSecret()];
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test' });
    const ts = Math.floor(Date.now() / 1000);
    const header = sign([a, b], 'evt_1', ts, body);
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [a, b]) {
      expect(() =>
        new Webhook(secret).verify(body, {
          'webhook-id': 'evt_1',
          'webhook-timestamp': String(ts),
          'webhook-signature': header,
        }),
      ).not.toThrow();
    }
    expect(() =>
      new Webhook(newSecret()).verify(body, {
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(ts),
        'webhook-signature': header,
      }),
    ).toThrow();
  });

  it('drop a rotated secret after its overlap', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const secrets = [
      { secret: 'new', created_at: '', expires_at: null },
      { secret: 'old', created_at: '', expires_at: '2026-01-02T00:00:01Z' },
      { secret: 'older', created_at: '', expires_at: '2026-01-01T23:59:59Z' },
    ];
    expect(activeSecrets(secrets, now).map((s) => s.secret)).toEqual(['new', 'old']);
  });
});

describe('delivery bodies', () => {
  it('are the same bytes whatever order the event keys come in (a DynamoDB read keeps none)', () => {
    const event = {
      id: 'evt_1',
      type: 'booking.created' as const,
      created_at: '2026-11-29T10:00:00.000Z',
      tenant_id: 't1',
      api_version: 'v1' as const,
      data: { booking: { id: 'bkg_1', customer: { phone: '+4915', id: 'cus_1' }, tags: [{ b: 1, a: 2 }] } },
    };
    const shuffled = {
      data: { booking: { tags: [{ a: 2, b: 1 }], customer: { id: 'cus_1', phone: '+4915' }, id: 'bkg_1' } },
      api_version: 'v1' as const,
      tenant_id: 't1',
      id: 'evt_1',
      created_at: '2026-11-29T10:00:00.000Z',
      type: 'booking.created' as const,
    };
    expect(deliveryBody(shuffled)).toBe(deliveryBody(event));
    expect(deliveryBody(event)).toBe(
      '{"id":"evt_1","type":"booking.created","created_at":"2026-11-29T10:00:00.000Z","tenant_id":"t1","api_version":"v1",' +
        '"data":{"booking":{"customer":{"id":"cus_1","phone":"+4915"},"id":"bkg_1","tags":[{"a":2,"b":1}]}}}',
    );
    expect(JSON.parse(deliveryBody(shuffled))).toEqual(event);
  });
});

describe('delivery ids and matching', () => {
  it('derive the same valid id from the same event and endpoint', () => {
    const id = deliveryId('evt_01M8065Z8RXNG2DTTCYGYWSTBH', 'whk_01M8065Z6SFENAQDBT80AP6GEJ');
    expect(id).toBe(deliveryId('evt_01M8065Z8RXNG2DTTCYGYWSTBH', 'whk_01M8065Z6SFENAQDBT80AP6GEJ'));
    expect(id).not.toBe(deliveryId('evt_01M8065Z8RXNG2DTTCYGYWSTBH', 'whk_01M8065Z6SFENAQDBT80AP6GEK'));
    expect(id).toMatch(/^dlv_01M8065Z8R[0-9A-HJKMNP-TV-Z]{16}$/);
  });

  it('match subscriptions with wildcards, never for inactive endpoints', () => {
    const at = (type: string, created_at = '2030-01-01T00:00:00.000Z') => ({ type, created_at });
    expect(subscribes({ events: ['*'], is_active: true }, at('booking.created'))).toBe(true);
    expect(subscribes({ events: ['booking.*'], is_active: true }, at('booking.rescheduled'))).toBe(true);
    expect(subscribes({ events: ['booking.*'], is_active: true }, at('conversation.created'))).toBe(false);
    expect(subscribes({ events: ['*'], is_active: false }, at('booking.created'))).toBe(false);
    // Events committed before the endpoint was (re-)activated are not sent, even if dispatched late.
    const since = { events: ['*'], is_active: true, active_from: '2030-01-01T00:00:00.000Z' };
    expect(subscribes(since, at('booking.created', '2029-12-31T23:59:00.000Z'))).toBe(false);
    expect(subscribes(since, at('booking.created', '2030-01-01T00:00:00.000Z'))).toBe(true);
  });

  it('judge an event by when it was committed, with a margin for clocks that differ', () => {
    const since = { events: ['*'], is_active: true, active_from: '2030-01-01T00:00:00.000Z' };
    // Its request started (created_at, on another Lambda's clock) before the re-activation, and it
    // committed after the re-activation's 2xx: it is sent.
    const slowRequest = { type: 'booking.created', created_at: '2029-12-31T23:59:57.000Z' };
    expect(subscribes(since, slowRequest, new Date('2030-01-01T00:00:00.400Z'))).toBe(true);
    // The stream's time is DynamoDB's, rounded down to the second, and the re-activating Lambda's clock
    // runs a little ahead of it: still sent.
    expect(subscribes(since, slowRequest, new Date('2029-12-31T23:59:58.000Z'))).toBe(true);
    // Committed well inside the inactive period, dispatched late: not sent.
    const early = { type: 'booking.created', created_at: '2029-12-31T23:57:58.000Z' };
    expect(subscribes(since, early, new Date('2029-12-31T23:58:00.000Z'))).toBe(false);
  });
});

describe('the sweeper', () => {
  it('gives an overdue delivery another attempt while retries remain, then hands it to the dead-letter queue', () => {
    const delays = [1, 5, 25, 125, 625];
    expect(sweepAction({ cycle_attempts: 0 }, delays)).toBe('attempt');
    expect(sweepAction({ cycle_attempts: 5 }, delays)).toBe('attempt');
    expect(sweepAction({ cycle_attempts: 6 }, delays)).toBe('dead_letter');
  });

  it('reads its grace period from the environment, falling back to the default on nonsense', () => {
    expect(sweepGraceSeconds('2')).toBe(2);
    for (const raw of [undefined, '', '0', '-3', '1.5', 'soon'])
      expect(sweepGraceSeconds(raw)).toBe(DEFAULT_SWEEP_GRACE_SECONDS);
  });
});

describe('SSRF guard', () => {
  it('refuses private, loopback, link-local, CGNAT, ULA and IPv4-mapped addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      '::ffff:0:7f00:1',
      'fec0::1',
      '2001::1',
      '100::1',
      '2002:7f00:1::1',
      '2001:db8::1',
    ]) {
      expect([ip, isPublicAddress(ip)]).toEqual([ip, false]);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect([ip, isPublicAddress(ip)]).toEqual([ip, true]);
  });

  it('knows link-local and cloud metadata addresses in every form, and nothing else', () => {
    for (const ip of [
      '169.254.169.254',
      '169.254.0.1',
      '169.254.255.255',
      'fe80::1',
      'febf:ffff::1',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      '100.100.100.200',
      '192.0.0.192',
    ])
      expect([ip, isLinkLocalOrMetadata(ip)]).toEqual([ip, true]);
    for (const ip of [
      '169.253.255.255',
      '169.255.0.0',
      'fec0::1',
      'fd00:ec2::253',
      '127.0.0.1',
      '10.0.0.1',
      '::1',
      'fd12::1',
      '8.8.8.8',
    ])
      expect([ip, isLinkLocalOrMetadata(ip)]).toEqual([ip, false]);
  });

  it('accepts only https URLs without credentials, at most 2,048 characters', () => {
    expect(() => checkUrlForm('http://example.com')).toThrow(UnsafeTarget);
    expect(() => checkUrlForm('https://u:p@example.com')).toThrow(UnsafeTarget);
    expect(() => checkUrlForm(`https://example.com/${'a'.repeat(2048)}`)).toThrow(UnsafeTarget);
    expect(() => checkUrlForm('not a url')).toThrow(UnsafeTarget);
    expect(checkUrlForm('https://example.com/hook').hostname).toBe('example.com');
  });
});

describe('endpoint URLs by role', () => {
  const endpoint = (url: string) => ({ id: 'whk_1', url });
  it('gives admins the whole URL and agents its origin when a path or query would show', () => {
    expect(endpointRecord(endpoint('https://hooks.example.com/catch/1/abc?t=x'), 'admin')).toEqual({
      id: 'whk_1',
      url: 'https://hooks.example.com/catch/1/abc?t=x',
      url_redacted: false,
    });
    expect(endpointRecord(endpoint('https://hooks.example.com:8443/catch/1/abc'), 'agent')).toEqual({
      id: 'whk_1',
      url: 'https://hooks.example.com:8443/',
      url_redacted: true,
    });
    expect(endpointRecord(endpoint('https://hooks.example.com/?token=x'), 'agent').url_redacted).toBe(true);
    expect(endpointRecord(endpoint('not a url'), 'agent')).toEqual({ id: 'whk_1', url: '', url_redacted: true });
    expect(endpointRecord(endpoint('https://hooks.example.com/'), 'agent')).toEqual({
      id: 'whk_1',
      url: 'https://hooks.example.com/',
      url_redacted: false,
    });
  });
});
