import { reminderTemplate } from '../../functions/reminders/reminder';

/** A reminder goes in the customer's language when the policy has a template in it, else in the default. */
const policy = {
  default_language: 'en',
  templates: [
    { name: 'reminder_en', language: 'en' },
    { name: 'reminder_de', language: 'de' },
    { name: 'reminder_pt', language: 'pt_BR' },
  ],
};

describe('the reminder template for a customer', () => {
  it("is the one in the customer's language", () => {
    expect(reminderTemplate(policy, 'de')?.name).toBe('reminder_de');
    expect(reminderTemplate(policy, 'en')?.name).toBe('reminder_en');
  });

  it('is one of the language base when none is exactly in it', () => {
    expect(reminderTemplate(policy, 'pt')?.name).toBe('reminder_pt');
    expect(reminderTemplate(policy, 'de-AT')?.name).toBe('reminder_de');
  });

  it("falls back to the default language's without a template in the customer's or without their language", () => {
    expect(reminderTemplate(policy, 'fr')?.name).toBe('reminder_en');
    expect(reminderTemplate(policy, null)?.name).toBe('reminder_en');
    expect(reminderTemplate({ ...policy, default_language: 'de' }, undefined)?.name).toBe('reminder_de');
  });

  it('falls back to the first when the default language has none either, and is undefined with no templates', () => {
    expect(reminderTemplate({ ...policy, default_language: 'es' }, 'fr')?.name).toBe('reminder_en');
    expect(reminderTemplate({ default_language: 'en', templates: [] }, 'de')).toBeUndefined();
  });
});
