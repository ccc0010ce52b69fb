import { useEffect, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import type { Tenant } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { ErrorAlert, fieldError } from '../components/errors';
import { browserTimeZone, timeZones } from '../format';

const LANGUAGES: { value: Tenant['default_language']; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'German (Deutsch)' },
  { value: 'es', label: 'Spanish (Español)' },
  { value: 'fr', label: 'French (Français)' },
  { value: 'pt', label: 'Portuguese (Português)' },
];

/** Settings › Tenant (admins): the business's name, its time zone and the language short messages are read in. */
export function TenantSettingsPage() {
  const { client, flash } = useApp();
  const settings = useResource((c) => c.settings.get(), []);
  const save = useAction();
  const [name, setName] = useState('');
  const [zone, setZone] = useState('UTC');
  const [language, setLanguage] = useState<Tenant['default_language']>('en');
  const t = settings.data;
  useEffect(() => {
    if (!t) return;
    setName(t.name);
    setZone(t.timezone);
    setLanguage(t.default_language);
  }, [t]);
  if (!t)
    return settings.error ? (
      <ErrorAlert error={settings.error} action={<Button onClick={() => void settings.reload()}>Retry</Button>} />
    ) : (
      <Box textAlign="center" padding="xl">
        <Spinner /> Loading the settings…
      </Box>
    );
  const changes = {
    ...(name.trim() !== t.name ? { name: name.trim() } : {}),
    ...(zone !== t.timezone ? { timezone: zone } : {}),
    ...(language !== t.default_language ? { default_language: language } : {}),
  };
  const changed = Object.keys(changes).length > 0;
  const submit = async () => {
    if (!changed) return;
    const saved = await save.run(() => client.settings.update(changes, { ifMatch: t.version }));
    if (saved) flash({ type: 'success', content: 'The tenant\u2019s settings are saved.' });
    void settings.reload();
  };
  const browserZone = browserTimeZone();
  return (
    <ContentLayout
      header={
        <Header variant="h1" description="How your business appears and where its clock is.">
          Tenant
        </Header>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Form
          actions={
            <Button variant="primary" formAction="submit" loading={save.busy} disabled={!changed}>
              Save
            </Button>
          }
          errorText={save.error ? <ErrorAlert error={save.error} onDismiss={save.clearError} /> : undefined}
        >
          <Container header={<Header variant="h2">Business</Header>}>
            <SpaceBetween size="l">
              <FormField label="Name" errorText={fieldError(save.error, ['name'])}>
                <Input value={name} onChange={(e) => setName(e.detail.value)} />
              </FormField>
              <FormField
                label="Time zone"
                description="AI suggestions and reminders say times in it; entities in messages are read in it."
                constraintText={zone !== browserZone ? `This browser is in ${browserZone}.` : undefined}
                errorText={fieldError(save.error, ['timezone'])}
              >
                <Select
                  selectedOption={{ value: zone, label: zone }}
                  onChange={(e) => setZone(e.detail.selectedOption.value ?? zone)}
                  options={timeZones().map((z) => ({ value: z, label: z }))}
                  filteringType="auto"
                  filteringAriaLabel="Find a time zone"
                  virtualScroll
                />
              </FormField>
              <FormField
                label="Default language"
                description="The language assumed for a customer message too short to tell."
                errorText={fieldError(save.error, ['default_language'])}
              >
                <Select
                  selectedOption={LANGUAGES.find((l) => l.value === language) ?? null}
                  onChange={(e) => setLanguage((e.detail.selectedOption.value ?? 'en') as Tenant['default_language'])}
                  options={LANGUAGES}
                />
              </FormField>
            </SpaceBetween>
          </Container>
        </Form>
      </form>
    </ContentLayout>
  );
}
