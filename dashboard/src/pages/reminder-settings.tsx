import { useEffect, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Toggle from '@cloudscape-design/components/toggle';
import { useAction, useApp, useResource } from '../context';
import { ErrorAlert, fieldError } from '../components/errors';
import { formatDateTime } from '../format';
import { follow } from '../router';
import { templateLabel, type Template } from '../templates';
import '../whatsapp.css';

type Unit = 'minutes' | 'hours' | 'days';
const UNITS: Record<Unit, { label: string; minutes: number }> = {
  minutes: { label: 'minutes', minutes: 1 },
  hours: { label: 'hours', minutes: 60 },
  days: { label: 'days', minutes: 1440 },
};
const UNIT_OPTIONS: SelectProps.Option[] = (Object.keys(UNITS) as Unit[]).map((u) => ({
  value: u,
  label: `${UNITS[u].label} before`,
}));
/** The API's bounds: 1 to 5 offsets, each from 5 minutes to 7 days before the start. */
const MAX_OFFSETS = 5;
const MIN_MINUTES = 5;
const MAX_MINUTES = 10_080;
const POLICY_FIELDS = ['enabled', 'offsets_minutes', 'templates', 'default_language'];

interface Offset {
  amount: string;
  unit: Unit;
}

/** An offset in minutes as a person would say it: 1440 → 1 day, 120 → 2 hours, 90 → 90 minutes. */
function offsetOf(minutes: number): Offset {
  if (minutes % 1440 === 0) return { amount: String(minutes / 1440), unit: 'days' };
  if (minutes % 60 === 0) return { amount: String(minutes / 60), unit: 'hours' };
  return { amount: String(minutes), unit: 'minutes' };
}

const minutesOf = (o: Offset): number | null =>
  /^\d+$/.test(o.amount.trim()) ? Number(o.amount) * UNITS[o.unit].minutes : null;

/** Why the offset at `i` cannot be saved ('' when it can). */
function offsetProblem(offsets: Offset[], i: number): string {
  const minutes = minutesOf(offsets[i]!);
  if (minutes === null) return 'A whole number.';
  if (minutes < MIN_MINUTES || minutes > MAX_MINUTES) return 'Between 5 minutes and 7 days.';
  if (offsets.slice(0, i).some((o) => minutesOf(o) === minutes)) return 'The same time is listed above.';
  return '';
}

/**
 * Settings › Reminders: when bookings are reminded over WhatsApp (offsets before the start) and with which
 * approved template, one per language. Admins change it; agents read it.
 */
export function ReminderSettingsPage() {
  const { client, isAdmin, flash } = useApp();
  const policy = useResource((c) => c.reminderPolicy.get(), []);
  const templates = useResource((c) => c.templates.list({ limit: 100 }).toArray({ max: 500 }), []);
  const [enabled, setEnabled] = useState(false);
  const [offsets, setOffsets] = useState<Offset[]>([]);
  const [chosen, setChosen] = useState<{ name: string; language: string }[]>([]);
  const [defaultLanguage, setDefaultLanguage] = useState('');
  const save = useAction();
  // The form starts from what is saved, and again after each save.
  const saved = policy.data;
  useEffect(() => {
    if (!saved) return;
    setEnabled(saved.enabled);
    setOffsets(saved.offsets_minutes.length ? saved.offsets_minutes.map(offsetOf) : [{ amount: '24', unit: 'hours' }]);
    setChosen(saved.templates);
    setDefaultLanguage(saved.default_language);
  }, [saved]);

  const approved = (templates.data ?? []).filter((t) => t.status === 'approved');
  const find = (ref: { name: string; language: string }): Template | undefined =>
    (templates.data ?? []).find((t) => t.name === ref.name && t.language === ref.language);
  const languages = [...new Set(chosen.map((t) => t.language))];
  const duplicateLanguage = languages.length !== chosen.length;
  const offsetsInvalid = offsets.some((_, i) => offsetProblem(offsets, i));
  const readOnly = !isAdmin;

  const submit = async () => {
    const minutes = [...new Set(offsets.map(minutesOf).filter((m): m is number => m !== null))].sort((a, b) => b - a);
    const updated = await save.run(() =>
      client.reminderPolicy.update({
        enabled,
        offsets_minutes: minutes,
        templates: chosen,
        ...(defaultLanguage || languages[0] ? { default_language: defaultLanguage || languages[0] } : {}),
      }),
    );
    if (!updated) return;
    flash({ type: 'success', content: 'The reminder settings are saved.' });
    void policy.reload();
  };

  const templateOptions = (current: { name: string; language: string } | undefined): SelectProps.Option[] =>
    approved
      .filter(
        (t) =>
          (current && t.name === current.name && t.language === current.language) ||
          !chosen.some((c) => c.language === t.language),
      )
      .map((t) => ({
        value: `${t.name}|${t.language}`,
        label: templateLabel(t),
        description: t.body.text.slice(0, 90),
        tags: [`${t.buttons.filter((b) => b.type === 'quick_reply').length} quick replies`],
      }));

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Booking reminders go over WhatsApp at set times before each booking's start, with an approved template whose quick-reply buttons let the customer confirm, cancel or reschedule with one tap."
        >
          Reminders
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={policy.error} action={<Button onClick={() => void policy.reload()}>Retry</Button>} />
        <ErrorAlert error={templates.error} header="The templates could not be loaded" />
        {!saved ? (
          <Box textAlign="center" padding="l">
            <Spinner /> Loading the reminder settings
          </Box>
        ) : (
          <Container
            header={
              <Header
                variant="h2"
                description={
                  saved.updated_at
                    ? `Last changed ${formatDateTime(saved.updated_at)}`
                    : 'Never set: reminders are off.'
                }
              >
                Reminder policy
              </Header>
            }
            footer={
              isAdmin && (
                <Box float="right">
                  <Button
                    variant="primary"
                    loading={save.busy}
                    disabled={offsetsInvalid || duplicateLanguage || (enabled && chosen.length === 0)}
                    disabledReason={
                      offsetsInvalid
                        ? 'Correct the times marked first.'
                        : duplicateLanguage
                          ? 'One template per language.'
                          : 'Choose a template to remind with.'
                    }
                    onClick={() => void submit()}
                  >
                    Save
                  </Button>
                </Box>
              )
            }
          >
            <SpaceBetween size="l">
              {readOnly && <Box color="text-body-secondary">Only admins change the reminder settings.</Box>}
              <Toggle checked={enabled} disabled={readOnly} onChange={(e) => setEnabled(e.detail.checked)}>
                Send booking reminders
              </Toggle>
              <FormField
                label="When"
                description="Up to 5 reminders per booking, each between 5 minutes and 7 days before its start."
                errorText={fieldError(save.error, ['offsets_minutes'])}
              >
                <SpaceBetween size="xs">
                  {offsets.map((o, i) => (
                    <div className="offset-row" key={i}>
                      <FormField label={`Reminder ${i + 1}`} errorText={offsetProblem(offsets, i)}>
                        <div className="offset-amount">
                          <Input
                            type="number"
                            inputMode="numeric"
                            value={o.amount}
                            readOnly={readOnly}
                            onChange={(e) =>
                              setOffsets((all) => all.map((x, j) => (j === i ? { ...x, amount: e.detail.value } : x)))
                            }
                          />
                        </div>
                      </FormField>
                      <Select
                        ariaLabel={`Reminder ${i + 1} unit`}
                        disabled={readOnly}
                        selectedOption={UNIT_OPTIONS.find((u) => u.value === o.unit) ?? null}
                        options={UNIT_OPTIONS}
                        onChange={(e) =>
                          setOffsets((all) =>
                            all.map((x, j) => (j === i ? { ...x, unit: e.detail.selectedOption.value as Unit } : x)),
                          )
                        }
                      />
                      {isAdmin && offsets.length > 1 && (
                        <Button
                          variant="icon"
                          iconName="remove"
                          ariaLabel={`Remove reminder ${i + 1}`}
                          onClick={() => setOffsets((all) => all.filter((_, j) => j !== i))}
                        />
                      )}
                    </div>
                  ))}
                  {isAdmin && (
                    <Button
                      iconName="add-plus"
                      disabled={offsets.length >= MAX_OFFSETS}
                      onClick={() => setOffsets((all) => [...all, { amount: '1', unit: 'hours' }])}
                    >
                      Add a reminder time
                    </Button>
                  )}
                </SpaceBetween>
              </FormField>
              <FormField
                label="Template per language"
                description={
                  <>
                    {
                      'Approved templates only. Its body parameters are filled with the customer’s first name, the start time and the service; its first three quick replies answer Confirm, Cancel and Reschedule. '
                    }
                    <Link href="/templates" onFollow={follow}>
                      Templates
                    </Link>
                  </>
                }
                errorText={
                  fieldError(save.error, ['templates']) || (duplicateLanguage ? 'One template per language.' : '')
                }
              >
                <SpaceBetween size="xs">
                  {chosen.map((ref, i) => {
                    const t = find(ref);
                    return (
                      <div className="offset-row" key={`${ref.name}|${ref.language}`}>
                        <Select
                          ariaLabel={`Template ${i + 1}`}
                          disabled={readOnly}
                          selectedOption={{
                            value: `${ref.name}|${ref.language}`,
                            label: templateLabel(ref),
                            description: t && t.status !== 'approved' ? `Not approved (${t.status})` : undefined,
                          }}
                          options={templateOptions(ref)}
                          onChange={(e) => {
                            const [name = '', language = ''] = (e.detail.selectedOption.value ?? '').split('|');
                            setChosen((all) => all.map((x, j) => (j === i ? { name, language } : x)));
                          }}
                        />
                        {isAdmin && (
                          <Button
                            variant="icon"
                            iconName="remove"
                            ariaLabel={`Remove ${templateLabel(ref)}`}
                            onClick={() => setChosen((all) => all.filter((_, j) => j !== i))}
                          />
                        )}
                      </div>
                    );
                  })}
                  {chosen.length === 0 && <Box color="text-status-inactive">No template chosen.</Box>}
                  {isAdmin && (
                    <div className="policy-field">
                      <Select
                        ariaLabel="Add a template"
                        placeholder={templates.loading && !templates.data ? 'Loading templates' : 'Add a template'}
                        selectedOption={null}
                        options={templateOptions(undefined)}
                        empty="No other approved template: create one on the Templates page."
                        onChange={(e) => {
                          const [name = '', language = ''] = (e.detail.selectedOption.value ?? '').split('|');
                          setChosen((all) => [...all, { name, language }]);
                          if (!defaultLanguage) setDefaultLanguage(language);
                        }}
                      />
                    </div>
                  )}
                </SpaceBetween>
              </FormField>
              <FormField
                label="Default language"
                description="Which of these templates the reminders are sent with."
                errorText={fieldError(save.error, ['default_language'])}
              >
                <div className="policy-field">
                  <Select
                    disabled={readOnly || languages.length === 0}
                    selectedOption={defaultLanguage ? { value: defaultLanguage, label: defaultLanguage } : null}
                    placeholder="Choose a template first"
                    options={languages.map((l) => ({ value: l, label: l }))}
                    onChange={(e) => setDefaultLanguage(e.detail.selectedOption.value ?? '')}
                  />
                </div>
              </FormField>
              <ErrorAlert error={save.error} onDismiss={save.clearError} atFields={POLICY_FIELDS} />
            </SpaceBetween>
          </Container>
        )}
      </SpaceBetween>
    </ContentLayout>
  );
}
