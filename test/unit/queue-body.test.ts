import { queueBody } from '../../functions/platform/queue';
import { batchesOf } from '../../functions/webhooks/delivery-queue';

describe('queue message bodies', () => {
  it('escape what SQS or its emulator refuse, and parse back to exactly what was sent', () => {
    const value = {
      text: 'Grüße 😡 \uffff\ufffe 日本 \u0000\u001f\u007f end',
      lone: 'broken \ud800 surrogate',
      nested: [{ n: 1.5, ok: true, none: null }],
    };
    const body = queueBody(value);
    expect(body).not.toMatch(/[\ud800-\udfff\ufffe\uffff]/);
    expect(JSON.parse(body)).toEqual(value);
    expect(body).toContain('\\ud83d\\ude21');
    expect(body).toContain('\\uffff\\ufffe');
  });

  it('leave other text as JSON.stringify writes it, so a body grows only by what needs escaping', () => {
    const value = { tenant_id: 't', text: 'Grüße, 日本, Привет', cycle: 1 };
    expect(queueBody(value)).toBe(JSON.stringify(value));
  });
});

describe('delivery batches', () => {
  it('hold at most ten bodies and at most 256 KiB together, in order', () => {
    const small = Array.from({ length: 23 }, (_, i) => `{"n":${i}}`);
    expect(batchesOf(small).map((b) => b.length)).toEqual([10, 10, 3]);
    expect(batchesOf(small).flat()).toEqual(small);
    const big = 'x'.repeat(100 * 1024);
    expect(batchesOf([big, big, big, 'y']).map((b) => b.length)).toEqual([2, 2]);
    // A single body over the limit still goes, alone (SQS judges it).
    const huge = 'z'.repeat(300 * 1024);
    expect(batchesOf(['a', huge, 'b']).map((b) => b.length)).toEqual([1, 1, 1]);
    expect(batchesOf([])).toEqual([]);
  });
});
