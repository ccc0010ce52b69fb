import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Textarea from '@cloudscape-design/components/textarea';
import { useAction, useApp, useEditableList, useResource } from '../context';
import { ConfirmAction, DialogFooter, Empty, EmptyUnlessFailed, LoadOlder } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { TemplatePreview } from '../components/template-preview';
import { formatDateTime } from '../format';
import {
  parameterCount,
  reasonWords,
  TEMPLATE_STATUS,
  templateLabel,
  type Template,
  type TemplateButton,
  type TemplateHeader,
} from '../templates';

const PAGE_SIZE = 50;
/** Without a realtime connection the page looks for Meta's verdicts this often (less while nothing changes). */
const REVIEW_POLL_MS = 3000;
const TEMPLATE_FIELDS = [
  'channel',
  'channel_account_id',
  'name',
  'language',
  'category',
  'header',
  'body',
  'footer',
  'buttons',
];
const CATEGORIES: SelectProps.Option[] = [
  {
    value: 'utility',
    label: 'Utility',
    description: 'About something the customer did or booked: reminders, receipts',
  },
  { value: 'marketing', label: 'Marketing', description: 'Offers, news and invitations' },
  { value: 'authentication', label: 'Authentication', description: 'One-time codes' },
];
const HEADER_FORMATS: SelectProps.Option[] = [
  { value: '', label: 'No header' },
  { value: 'text', label: 'Text' },
  { value: 'image', label: 'Image' },
  { value: 'video', label: 'Video' },
  { value: 'document', label: 'Document' },
];
const CHANNEL_WORDS = (t: Template) => (t.channel === 'sandbox' ? 'Sandbox' : `WhatsApp ${t.channel_account_id ?? ''}`);

/** A template's status in words, with Meta's reason for a rejection, pause or disable. */
export function TemplateStatusLine({ template: t }: { template: Template }) {
  const status = TEMPLATE_STATUS[t.status];
  const reason = reasonWords(t.rejection_reason);
  return (
    <StatusIndicator type={status.indicator}>
      {reason && t.status !== 'approved' && t.status !== 'pending' ? `${status.label}: ${reason}` : status.label}
    </StatusIndicator>
  );
}

/**
 * Templates: the tenant's WhatsApp message templates (and the sandbox's) with Meta's review status, created
 * with a live preview, deleted, and synced from WhatsApp Manager. Only approved ones can be sent, and only
 * templates may be sent once a customer's 24-hour window has closed.
 */
export function TemplatesPage() {
  const { client, isAdmin } = useApp();
  // Pushed status events (or a poll while the realtime connection is down) show Meta's verdicts as they come.
  const {
    list,
    more,
    shown,
    selected,
    setSelected,
    current,
    editing,
    setEditing,
    deleting,
    setDeleting,
    remove,
    done,
  } = useEditableList<Template>(
    (c, cursor) => c.templates.list({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }).page(),
    { pollMs: REVIEW_POLL_MS, refreshOn: (e) => e.type === 'template.status_updated' },
  );
  const creating = editing === 'new';
  const setCreating = (on: boolean) => setEditing(on ? 'new' : null);
  const channels = useResource((c) => c.channels.list(), []);
  const numbers = (channels.data ?? []).flatMap((c) => (c.channel === 'whatsapp' && c.waba_id ? [c] : []));
  const sync = useAction();
  const runSync = async () => {
    const totals = { imported: 0, updated: 0 };
    for (const n of numbers) {
      const result = await sync.run(() => client.templates.sync({ channel_account_id: n.phone_number_id }));
      if (!result) return;
      totals.imported += result.imported;
      totals.updated += result.updated;
    }
    done(
      totals.imported || totals.updated
        ? `Synced with Meta: ${totals.imported} new, ${totals.updated} with a new status.`
        : 'Synced with Meta: nothing changed.',
    );
  };

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="What may be sent to a customer whose 24-hour window has closed, and what booking reminders are sent with. Meta reviews each template first; only approved ones can be sent."
          actions={
            isAdmin && (
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  iconName="refresh"
                  loading={sync.busy}
                  disabled={numbers.length === 0}
                  disabledReason="Connect a WhatsApp number (with its Business Account) to sync its templates."
                  onClick={() => void runSync()}
                >
                  Sync with Meta
                </Button>
                <Button disabled={!current} onClick={() => setDeleting(true)}>
                  Delete
                </Button>
                <Button variant="primary" onClick={() => setCreating(true)}>
                  Create template
                </Button>
              </SpaceBetween>
            )
          }
        >
          Templates
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={list.error} action={<Button onClick={() => void list.reload()}>Retry</Button>} />
        <ErrorAlert error={sync.error} header="The templates could not be synced" onDismiss={sync.clearError} />
        <Cards
          items={shown ?? []}
          loading={list.loading && !list.data}
          loadingText="Loading templates"
          trackBy="id"
          selectionType={isAdmin ? 'single' : undefined}
          selectedItems={selected}
          onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
          cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1100, cards: 3 }]}
          ariaLabels={{
            itemSelectionLabel: (_s, t) => `Select ${templateLabel(t)}`,
            selectionGroupLabel: 'Template selection',
          }}
          header={
            <Header variant="h2" counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}>
              Message templates
            </Header>
          }
          cardDefinition={{
            header: (t) => <span className="template-name">{t.name}</span>,
            sections: [
              { id: 'status', header: 'Status', content: (t) => <TemplateStatusLine template={t} /> },
              {
                id: 'about',
                header: 'Language, category, channel',
                content: (t) => `${t.language} · ${t.category} · ${CHANNEL_WORDS(t)}`,
              },
              {
                id: 'preview',
                content: (t) => (
                  <TemplatePreview
                    template={t}
                    label={`Preview of ${t.name}`}
                    values={{
                      header: t.header?.format === 'text' && t.header.example ? [t.header.example] : [],
                      body: t.body.examples,
                      buttons: t.buttons.map((b) => (b.type === 'url' ? (b.example ?? '') : '')),
                    }}
                  />
                ),
              },
              { id: 'updated', header: 'Changed', content: (t) => formatDateTime(t.updated_at) },
            ],
          }}
          empty={
            <EmptyUnlessFailed resource={list}>
              <Empty
                title="No templates yet"
                action={isAdmin ? <Button onClick={() => setCreating(true)}>Create template</Button> : undefined}
              >
                Create one for appointment reminders or for answering a customer after 24 hours.
              </Empty>
            </EmptyUnlessFailed>
          }
        />
        <LoadOlder more={more}>Load more templates</LoadOlder>
      </SpaceBetween>
      {creating && (
        <CreateTemplateModal
          numbers={numbers}
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            done(`${templateLabel(t)} is submitted for review.`);
          }}
        />
      )}
      <ConfirmAction
        visible={deleting}
        close={() => setDeleting(false)}
        header="Delete template"
        confirmText="Delete"
        action={remove}
        run={() => client.templates.delete(current!.id).then(() => true)}
        onDone={() => done(`${templateLabel(current!)} is deleted.`)}
      >
        <Box variant="p">
          {current?.channel === 'whatsapp'
            ? `${templateLabel(current)} is deleted here and from your WhatsApp Business Account; Meta keeps its name blocked for 30 days.`
            : `${current ? templateLabel(current) : ''} is deleted.`}
        </Box>
      </ConfirmAction>
    </ContentLayout>
  );
}

type ButtonDraft = { type: 'quick_reply'; text: string } | { type: 'url'; text: string; url: string; example: string };

/** Examples kept as many as the text's parameters (one each, as Meta asks). */
const sized = (examples: string[], count: number) => Array.from({ length: count }, (_, i) => examples[i] ?? '');

function CreateTemplateModal({
  numbers,
  onClose,
  onCreated,
}: {
  numbers: { phone_number_id: string; display_phone_number: string | null }[];
  onClose: () => void;
  onCreated: (t: Template) => void;
}) {
  const { client } = useApp();
  const channelOptions: SelectProps.Option[] = [
    { value: 'sandbox', label: 'Sandbox', description: 'Approved after a few seconds, for trying things out' },
    ...numbers.map((n) => ({
      value: n.phone_number_id,
      label: `WhatsApp ${n.display_phone_number ?? n.phone_number_id}`,
      description: 'Reviewed by Meta',
    })),
  ];
  const [channel, setChannel] = useState<SelectProps.Option>(channelOptions[numbers.length === 1 ? 1 : 0]!);
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('en');
  const [category, setCategory] = useState<SelectProps.Option>(CATEGORIES[0]!);
  const [headerFormat, setHeaderFormat] = useState<SelectProps.Option>(HEADER_FORMATS[0]!);
  const [headerText, setHeaderText] = useState('');
  const [headerExample, setHeaderExample] = useState('');
  const [bodyText, setBodyText] = useState('');
  const [bodyExamples, setBodyExamples] = useState<string[]>([]);
  const [footer, setFooter] = useState('');
  const [buttons, setButtons] = useState<ButtonDraft[]>([]);
  const action = useAction();

  const bodyCount = parameterCount(bodyText);
  const examples = sized(bodyExamples, bodyCount);
  const format = headerFormat.value ?? '';
  const header: TemplateHeader | null =
    format === 'text'
      ? { format: 'text', text: headerText, example: parameterCount(headerText) ? headerExample || null : null }
      : format === 'image' || format === 'video' || format === 'document'
        ? { format, example_url: null }
        : null;
  const templateButtons: TemplateButton[] = buttons.map((b) =>
    b.type === 'url'
      ? { type: 'url', text: b.text, url: b.url, example: parameterCount(b.url) ? b.example || null : null }
      : b,
  );
  const draft = {
    header,
    body: { text: bodyText, examples },
    footer: footer ? { text: footer } : null,
    buttons: templateButtons,
  };
  const err = (...paths: string[]) => fieldError(action.error, paths);
  const setButton = (i: number, change: Partial<ButtonDraft>) =>
    setButtons((all) => all.map((b, j) => (j === i ? ({ ...b, ...change } as ButtonDraft) : b)));
  const urlButtons = buttons.filter((b) => b.type === 'url').length;

  const submit = async () => {
    const created = await action.run(() =>
      client.templates.create({
        ...(channel.value === 'sandbox'
          ? { channel: 'sandbox' as const }
          : { channel: 'whatsapp' as const, channel_account_id: channel.value }),
        name: name.trim(),
        language: language.trim(),
        category: category.value as Template['category'],
        ...draft,
      }),
    );
    if (created) onCreated(created);
  };

  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      size="max"
      header="Create template"
      onDismiss={onClose}
      footer={
        <DialogFooter
          onCancel={onClose}
          busy={action.busy}
          onConfirm={() => void submit()}
          confirmText="Submit for review"
        />
      }
    >
      <div className="template-editor">
        <SpaceBetween size="m">
          <FormField label="Channel" errorText={err('channel', 'channel_account_id')}>
            <Select
              selectedOption={channel}
              options={channelOptions}
              onChange={(e) => setChannel(e.detail.selectedOption)}
            />
          </FormField>
          <FormField
            label="Name"
            description="Lower-case letters, digits and _, as Meta asks: appointment_reminder."
            errorText={fieldError(action.error, ['name'], ['template_exists'])}
          >
            <Input
              value={name}
              onChange={(e) => setName(e.detail.value)}
              placeholder="appointment_reminder"
              autoFocus
            />
          </FormField>
          <SpaceBetween direction="horizontal" size="s">
            <FormField label="Language" description="A code: en, en_US, de, pt_BR." errorText={err('language')}>
              <Input value={language} onChange={(e) => setLanguage(e.detail.value)} placeholder="en_US" />
            </FormField>
            <FormField label="Category" errorText={err('category')}>
              <Select
                selectedOption={category}
                options={CATEGORIES}
                onChange={(e) => setCategory(e.detail.selectedOption)}
              />
            </FormField>
          </SpaceBetween>
          <FormField label="Header" errorText={err('header')}>
            <SpaceBetween size="xs">
              <Select
                selectedOption={headerFormat}
                options={HEADER_FORMATS}
                onChange={(e) => setHeaderFormat(e.detail.selectedOption)}
                ariaLabel="Header kind"
              />
              {format === 'text' && (
                <Input
                  value={headerText}
                  onChange={(e) => setHeaderText(e.detail.value)}
                  ariaLabel="Header text"
                  placeholder="Your visit on {{1}}"
                />
              )}
              {format === 'text' && parameterCount(headerText) > 0 && (
                <Input
                  value={headerExample}
                  onChange={(e) => setHeaderExample(e.detail.value)}
                  ariaLabel="Example for the header's {{1}}"
                  placeholder="Example for {{1}}"
                />
              )}
              {format && format !== 'text' && (
                <Box variant="small" color="text-body-secondary">
                  The {format} is given with each message sent.
                </Box>
              )}
            </SpaceBetween>
          </FormField>
          <FormField
            label="Body"
            description="Up to 1,024 characters. Parameters are numbered {{1}}, {{2}} … and filled in when the message is sent."
            errorText={err('body.text')}
            stretch
          >
            <Textarea
              value={bodyText}
              onChange={(e) => setBodyText(e.detail.value)}
              rows={4}
              placeholder="Hi {{1}}, this is a reminder of your visit on {{2}}."
            />
          </FormField>
          {examples.map((value, i) => (
            <FormField
              key={i}
              label={`Example for {{${i + 1}}}`}
              description={i === 0 ? 'Meta reviews the template with these values.' : undefined}
              errorText={err(`body.examples[${i}]`)}
            >
              <Input
                value={value}
                onChange={(e) => setBodyExamples(examples.map((v, j) => (j === i ? e.detail.value : v)))}
              />
            </FormField>
          ))}
          <FormField label="Footer (optional)" errorText={err('footer')}>
            <Input value={footer} onChange={(e) => setFooter(e.detail.value)} placeholder="Reply STOP to opt out" />
          </FormField>
          <FormField
            label="Buttons"
            description="Up to 10: quick replies the customer taps to answer, and up to 2 links."
            errorText={err('buttons')}
          >
            <SpaceBetween size="xs">
              {buttons.map((b, i) => (
                <div key={i} className="button-row">
                  <FormField label={b.type === 'url' ? `Link ${i + 1} text` : `Quick reply ${i + 1}`}>
                    <Input value={b.text} onChange={(e) => setButton(i, { text: e.detail.value })} />
                  </FormField>
                  {b.type === 'url' && (
                    <FormField label={`Link ${i + 1} URL`} description="May end in {{1}}.">
                      <Input
                        value={b.url}
                        onChange={(e) => setButton(i, { url: e.detail.value })}
                        placeholder="https://example.com/visits/{{1}}"
                      />
                    </FormField>
                  )}
                  <div className="button-remove">
                    <Button
                      variant="icon"
                      iconName="remove"
                      ariaLabel={`Remove button ${i + 1}`}
                      onClick={() => setButtons((all) => all.filter((_, j) => j !== i))}
                    />
                  </div>
                  {b.type === 'url' && parameterCount(b.url) > 0 && (
                    <div className="button-example">
                      <FormField label={`Link ${i + 1} example`} description="The whole URL, for Meta's review.">
                        <Input
                          value={b.example}
                          onChange={(e) => setButton(i, { example: e.detail.value })}
                          placeholder="https://example.com/visits/42"
                        />
                      </FormField>
                    </div>
                  )}
                </div>
              ))}
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  iconName="add-plus"
                  disabled={buttons.length >= 10}
                  onClick={() => setButtons((all) => [...all, { type: 'quick_reply', text: '' }])}
                >
                  Add quick reply
                </Button>
                <Button
                  iconName="add-plus"
                  disabled={buttons.length >= 10 || urlButtons >= 2}
                  onClick={() => setButtons((all) => [...all, { type: 'url', text: '', url: '', example: '' }])}
                >
                  Add link
                </Button>
              </SpaceBetween>
            </SpaceBetween>
          </FormField>
          <ErrorAlert error={action.error} atFields={TEMPLATE_FIELDS} />
        </SpaceBetween>
        <div className="template-editor-preview">
          <SpaceBetween size="xs">
            <Box variant="awsui-key-label">Preview</Box>
            <TemplatePreview
              template={draft}
              values={{
                header: headerExample ? [headerExample] : [],
                body: examples,
                buttons: buttons.map((b) => (b.type === 'url' ? b.example : '')),
              }}
              label="Live preview"
            />
          </SpaceBetween>
        </div>
      </div>
    </Modal>
  );
}
