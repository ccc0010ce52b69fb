import { queueBody } from '../../functions/platform/queue';

describe('queue message bodies', () => {
  it('are printable ASCII, whatever the text, and parse back to exactly what was sent', () => {
    const value = {
      text: 'Grüße 😡 \uffff\ufffe 日本 \u0000\u001f\u007f end',
      lone: 'broken \ud800 surrogate',
      nested: [{ n: 1.5, ok: true, none: null }],
    };
    const body = queueBody(value);
    expect(body).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(body)).toEqual(value);
    expect(body).toContain('\\ud83d\\ude21');
  });

  it('leave plain ASCII JSON as JSON.stringify writes it', () => {
    const value = { tenant_id: 't', delivery_id: 'dlv_1', cycle: 1, failures: 0 };
    expect(queueBody(value)).toBe(JSON.stringify(value));
  });
});
