import { call } from '../support/api';
import { testRuntime } from '../support/runtime';

/**
 * HEAD answers as GET without a body (RFC 9110 §9.3.2) where the API serves it: the OpenAPI document (a
 * route that takes HEAD: RouteDef.head) and the local API reference pages.
 */
const raw = (method: string, path: string) => fetch(`${testRuntime().url}${path}`, { method });

/** The headers that describe the representation, which HEAD must answer as GET does. */
const DESCRIBING = ['content-type', 'content-length', 'cache-control', 'x-content-type-options'];
const describing = (headers: Headers) => Object.fromEntries(DESCRIBING.map((name) => [name, headers.get(name)]));

describe('HEAD', () => {
  it.each(['/openapi.json', '/v1/openapi.json'])('answers HEAD %s as GET, without a body', async (path) => {
    const get = await call('GET', path);
    const head = await call('HEAD', path);
    expect([get.status, head.status]).toEqual([200, 200]);
    expect(head.text).toBe('');
    expect(get.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(describing(head.headers)).toEqual(describing(get.headers));
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(['/docs', '/docs/redoc.standalone.js'])('answers HEAD %s as GET, without a body', async (path) => {
    const get = await raw('GET', path);
    const getBody = Buffer.from(await get.arrayBuffer());
    const head = await raw('HEAD', path);
    expect([get.status, head.status]).toEqual([200, 200]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(get.headers.get('content-length')).toBe(String(getBody.length));
    expect(describing(head.headers)).toEqual(describing(get.headers));
  });

  it('names HEAD among the methods the document allows, and still refuses others', async () => {
    const post = await call('POST', '/openapi.json', { body: {} });
    expect([post.status, post.body.code, post.headers.get('allow')]).toEqual([405, 'method_not_allowed', 'GET, HEAD']);
  });
});
