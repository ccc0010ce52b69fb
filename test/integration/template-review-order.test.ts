import { newId } from '../../functions/platform/ids';
import { putTemplate } from '../../functions/templates/store';
import {
  applyHeldTemplateStatus,
  applyMetaTemplateStatus,
  changeTemplateStatus,
} from '../../functions/templates/service';
import type { Template } from '../../functions/templates/template';
import { authOf, call, createTenant, eventsOf, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { failCalls, throttled, writesTo } from '../support/dynamo-faults';

/**
 * Meta may review a template within moments, and its status webhook can then be processed before the
 * platform has recorded the template (its creation's answer still on the way). The review is held, and
 * the record applies it: whichever of the two comes second.
 */
useRuntimeAws();

const whatsAppTemplate = (t: TestTenant, name: string, providerId: string): Template => {
  const at = new Date().toISOString();
  return {
    id: newId('tpl'),
    tenant_id: t.tenantId,
    channel: 'whatsapp',
    channel_account_id: '1555000111',
    name,
    language: 'en',
    category: 'utility',
    header: null,
    body: { text: 'Hi {{1}}, your table is ready.', examples: ['Maria'] },
    footer: null,
    buttons: [],
    status: 'pending',
    rejection_reason: null,
    provider_template_id: providerId,
    created_at: at,
    updated_at: at,
    version: 1,
  };
};

it('a review that came before the template was recorded is applied when it is recorded', async () => {
  const t = await createTenant();
  const providerId = String(Date.now()).slice(-12);
  expect(await applyMetaTemplateStatus(providerId, 'REJECTED', 'INVALID_FORMAT', new Date())).toBe('held');

  const template = whatsAppTemplate(t, `early_review_${providerId}`, providerId);
  await putTemplate(template);
  const applied = await applyHeldTemplateStatus(template, new Date());
  expect(applied).toMatchObject({ id: template.id, status: 'rejected', rejection_reason: 'INVALID_FORMAT' });
  expect((await call('GET', `/templates/${template.id}`, authOf(t))).body).toMatchObject({ status: 'rejected' });
  const events = await eventsOf(t, 'template.status_updated', (list) => list.length > 0);
  expect(events[0]?.data).toMatchObject({
    template: { id: template.id, status: 'rejected' },
    previous_status: 'pending',
  });

  // Recorded first, a review applies at once, and nothing is held.
  const later = whatsAppTemplate(t, `late_review_${providerId}`, `${providerId}1`);
  await putTemplate(later);
  expect(await applyMetaTemplateStatus(later.provider_template_id ?? '', 'APPROVED', 'NONE', new Date())).toBe(
    'applied',
  );
  expect((await call('GET', `/templates/${later.id}`, authOf(t))).body).toMatchObject({ status: 'approved' });
});

it('a held review never overrides a newer one, nor one held past its day', async () => {
  const t = await createTenant();
  const providerId = `${String(Date.now()).slice(-12)}2`;
  expect(await applyMetaTemplateStatus(providerId, 'APPROVED', 'NONE', new Date())).toBe('held');
  const template = whatsAppTemplate(t, `newer_review_${providerId}`, providerId);
  await putTemplate(template);
  // A later review reached the template first (its webhook found the record): the held one is older.
  await changeTemplateStatus(t.tenantId, template.id, 'paused', null, new Date());
  expect(await applyHeldTemplateStatus(template, new Date())).toMatchObject({ status: 'paused' });

  const stale = `${providerId}3`;
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  expect(await applyMetaTemplateStatus(stale, 'REJECTED', 'INVALID_FORMAT', twoDaysAgo)).toBe('held');
  const late = whatsAppTemplate(t, `stale_review_${providerId}`, stale);
  await putTemplate(late);
  await applyHeldTemplateStatus(late, new Date());
  expect((await call('GET', `/templates/${late.id}`, authOf(t))).body).toMatchObject({ status: 'pending' });
});

it('a held review is applied even when its first writes are throttled', async () => {
  const t = await createTenant();
  const providerId = `${String(Date.now()).slice(-12)}4`;
  expect(await applyMetaTemplateStatus(providerId, 'APPROVED', 'NONE', new Date())).toBe('held');
  const template = whatsAppTemplate(t, `throttled_review_${providerId}`, providerId);
  await putTemplate(template);
  // Throttled past the SDK's own retries, twice: the record's apply is the only one that would bring it.
  const stop = failCalls(writesTo('TPL#'), throttled, 2);
  try {
    expect(await applyHeldTemplateStatus(template, new Date())).toMatchObject({ status: 'approved' });
  } finally {
    stop();
  }
  expect((await call('GET', `/templates/${template.id}`, authOf(t))).body).toMatchObject({ status: 'approved' });
});
