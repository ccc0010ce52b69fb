import { canonicalJson, jsonDepth } from '../../functions/platform/fields';
import { requestFingerprint } from '../../functions/http/idempotency';

describe('canonical JSON', () => {
  it('sorts keys at every level and writes what JSON.stringify would for the rest', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x"y', { d: 2, c: [] }], '': {} })).toBe(
      '{"":{},"a":[true,null,"x\\"y",{"c":[],"d":2}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"constructor":2}'))).toBe(
      '{"__proto__":{"x":1},"constructor":2}',
    );
  });

  it('handles any nesting depth without recursion', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    const text = canonicalJson(deep);
    expect(text.startsWith('[{"k":[{"k":')).toBe(true);
    expect(text.length).toBe((100_000 / 2) * ('[]'.length + '{"k":}'.length) + '"leaf"'.length);
    expect(jsonDepth(text)).toBe(100_000);
  });
});

describe('JSON depth', () => {
  it('counts nested objects and arrays, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[{"b":[]}],"c":{}}')).toBe(4);
    expect(jsonDepth('{"a":"[[[{{{\\"[[["}')).toBe(1);
    expect(jsonDepth('["\\\\",[["x"]]]')).toBe(3);
  });
});

describe('idempotency fingerprints', () => {
  const messages = { method: 'POST', path: '/conversations/{id}/messages' } as const;
  const body = { text: 'hi' };

  it('differ by path parameter, method and path, and not by key order', () => {
    const c1 = requestFingerprint(messages, { id: 'conv_1' }, body);
    expect(requestFingerprint(messages, { id: 'conv_2' }, body)).not.toBe(c1);
    expect(requestFingerprint({ method: 'POST', path: '/conversations/{id}' }, { id: 'conv_1' }, body)).not.toBe(c1);
    expect(
      requestFingerprint({ method: 'PATCH', path: '/conversations/{id}/messages' }, { id: 'conv_1' }, body),
    ).not.toBe(c1);
    expect(requestFingerprint(messages, { id: 'conv_1' }, { text: 'hi!' })).not.toBe(c1);
    expect(requestFingerprint(messages, { id: 'conv_1' }, { text: 'hi' })).toBe(c1);
    const twoFields = requestFingerprint({ method: 'POST', path: '/users' }, {}, { a: 1, b: 2 });
    expect(requestFingerprint({ method: 'POST', path: '/users' }, {}, { b: 2, a: 1 })).toBe(twoFields);
    // The query counts when there is one (in any order), and an empty one is no query.
    const notify = { method: 'POST' as const, path: '/bookings/{id}/notify' };
    const german = requestFingerprint(notify, { id: 'bkg_1' }, undefined, { language: 'de', x: '1' });
    expect(requestFingerprint(notify, { id: 'bkg_1' }, undefined, { x: '1', language: 'de' })).toBe(german);
    expect(requestFingerprint(notify, { id: 'bkg_1' }, undefined, { language: 'en', x: '1' })).not.toBe(german);
    expect(requestFingerprint(notify, { id: 'bkg_1' }, undefined, {})).toBe(
      requestFingerprint(notify, { id: 'bkg_1' }, undefined),
    );
  });

  it('cannot be confused by a parameter that looks like a path', () => {
    const retry = { method: 'POST', path: '/webhook-deliveries/{id}/retry' } as const;
    expect(requestFingerprint(retry, { id: 'a/retry' }, {})).not.toBe(requestFingerprint(retry, { id: 'a' }, {}));
  });
});
