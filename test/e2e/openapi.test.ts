import { readFileSync } from 'node:fs';
import { call } from '../support/api';
import { testRuntime } from '../support/runtime';

const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

describe('the API contract, served', () => {
  it('serves openapi.json without credentials, not rate-limited, under both prefixes', async () => {
    for (const path of ['/openapi.json', '/v1/openapi.json']) {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual(committed);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('renders the reference at /docs with Redoc served locally (no CDN)', async () => {
    const base = testRuntime().url;
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('spec-url="/api/v1/openapi.json"');
    expect(html).toContain('<script src="/docs/redoc.standalone.js">');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const script = await fetch(`${base}/docs/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
