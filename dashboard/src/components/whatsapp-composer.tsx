/**
 * The composer's WhatsApp parts, beside the reply box: when the customer's 24-hour window closes, the
 * approved templates (with a field per parameter) once it has closed, and scheduled sends (`send_at`),
 * listed with a cancel each.
 */
import { useEffect, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Icon from '@cloudscape-design/components/icon';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TimeInput from '@cloudscape-design/components/time-input';
import type { Conversation, Message } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { ErrorAlert, fieldError } from './errors';
import { TemplatePreview } from './template-preview';
import { formatWait, formatWhen, isoDay, localInstant, localTimeOf } from '../format';
import { changesConversation } from '../realtime';
import { templateLabel, templateParameters } from '../templates';
import '../whatsapp.css';

/** How often the window line is brought up to date while the conversation is open. */
const WINDOW_TICK_MS = 30_000;
/** The approved templates offered (the API's largest page, newest first). */
const TEMPLATES_READ = 100;

/** Whether a conversation's WhatsApp window has closed (never on the sandbox, which has none). */
export function windowState(c: Pick<Conversation, 'window_expires_at'>, now = Date.now()) {
  if (!c.window_expires_at) return { known: false as const };
  const closesAt = Date.parse(c.window_expires_at);
  return { known: true as const, closed: closesAt <= now, secondsLeft: Math.max(0, (closesAt - now) / 1000) };
}

/** The current time, moved on every `everyMs` (for texts that say "in 3 hours"). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The 24-hour window in words, above the reply box: when it closes while it is open; once it has closed, why
 * only templates go now and the template picker that sends one.
 */
export function ServiceWindow({ conversation: c, onSent }: { conversation: Conversation; onSent: () => void }) {
  const now = useNow(WINDOW_TICK_MS);
  const state = windowState(c, now);
  if (!state.known) return null;
  if (!state.closed)
    return (
      <div className="window-line" data-testid="service-window">
        {`The 24-hour window closes in ${formatWait(state.secondsLeft)} (${formatWhen(c.window_expires_at)}); after it, only approved templates can be sent.`}
      </div>
    );
  return (
    <div className="template-slot" data-slot="whatsapp-templates">
      <SpaceBetween size="xs">
        <div className="window-closed">
          <Icon name="status-warning" variant="warning" />
          <span>
            {`The 24-hour window has closed (${formatWhen(c.window_expires_at)}): only approved templates reach the customer until they write again.`}
          </span>
        </div>
        <TemplatePicker conversation={c} onSent={onSent} />
      </SpaceBetween>
    </div>
  );
}

/** The values typed for a template's parameters, by part. */
interface Values {
  header: string[];
  body: string[];
  buttons: string[];
}
const EMPTY: Values = { header: [], body: [], buttons: [] };

/** The conversation's approved templates (its own number's, or the sandbox's), with a field per parameter, and Send. */
export function TemplatePicker({ conversation: c, onSent }: { conversation: Conversation; onSent: () => void }) {
  const { client } = useApp();
  const templates = useResource((client) => client.templates.list({ limit: TEMPLATES_READ }).page(), []);
  const usable = (templates.data?.data ?? []).filter(
    (t) =>
      t.status === 'approved' &&
      t.channel === c.channel &&
      (c.channel === 'sandbox' || t.channel_account_id === c.channel_account_id),
  );
  const [chosenId, setChosenId] = useState<string | null>(null);
  const chosen = usable.find((t) => t.id === chosenId);
  const [values, setValues] = useState<Values>(EMPTY);
  const send = useAction();
  const needs = chosen ? templateParameters(chosen) : { header: 0, body: 0, buttons: [] };
  const fieldsOf = (part: keyof Values, count: number) =>
    Array.from({ length: count }, (_, i) => values[part][i] ?? '');
  const header = fieldsOf('header', needs.header);
  const body = fieldsOf('body', needs.body);
  // A URL button's parameter is the one value sent for that button.
  const buttonIndexes = needs.buttons.flatMap((n, i) => (n > 0 ? [i] : []));
  const missing = [...header, ...body, ...buttonIndexes.map((i) => values.buttons[i] ?? '')].some((v) => !v.trim());
  const set = (part: keyof Values, i: number, value: string) =>
    setValues((all) => {
      const next = [...all[part]];
      next[i] = value;
      return { ...all, [part]: next };
    });

  const submit = async () => {
    if (!chosen) return;
    const parameters = {
      ...(header.length ? { header } : {}),
      ...(body.length ? { body } : {}),
      ...(buttonIndexes.length ? { buttons: buttonIndexes.map((i) => values.buttons[i] ?? '') } : {}),
    };
    const sent = await send.run(() =>
      client.conversations.messages.send(c.id, {
        template: { name: chosen.name, language: chosen.language, parameters },
      }),
    );
    if (!sent) return;
    setValues(EMPTY);
    setChosenId(null);
    onSent();
  };

  return (
    <div role="group" aria-label="Send a template">
      <SpaceBetween size="xs">
        <ErrorAlert error={templates.error} action={<Button onClick={() => void templates.reload()}>Retry</Button>} />
        <ErrorAlert error={send.error} onDismiss={send.clearError} atFields={['template.parameters']} />
        <div className="template-choice">
          <Select
            ariaLabel="Template"
            placeholder={
              templates.data && usable.length === 0 ? 'No approved template for this number' : 'Choose a template'
            }
            selectedOption={chosen ? { value: chosen.id, label: templateLabel(chosen) } : null}
            options={usable.map((t) => ({
              value: t.id,
              label: templateLabel(t),
              description: t.body.text.slice(0, 90),
              tags: [t.category],
            }))}
            statusType={templates.loading && !templates.data ? 'loading' : 'finished'}
            loadingText="Loading templates"
            empty="No approved template for this number: create one on the Templates page."
            onChange={(e) => {
              setChosenId(e.detail.selectedOption.value ?? null);
              setValues(EMPTY);
              send.clearError();
            }}
          />
          {chosen && (
            <Button
              variant="primary"
              loading={send.busy}
              disabled={missing}
              disabledReason="Fill in every parameter first."
              onClick={() => void submit()}
            >
              Send template
            </Button>
          )}
        </div>
        {chosen && (
          <div className="template-picker">
            <SpaceBetween size="xs">
              {header.map((v, i) => (
                <FormField key={`h${i}`} label={`Header {{${i + 1}}}`}>
                  <Input value={v} onChange={(e) => set('header', i, e.detail.value)} />
                </FormField>
              ))}
              {body.map((v, i) => (
                <FormField
                  key={`b${i}`}
                  label={`{{${i + 1}}}`}
                  errorText={fieldError(send.error, [`template.parameters.body[${i}]`])}
                >
                  <Input
                    value={v}
                    placeholder={chosen.body.examples[i] ? `For example: ${chosen.body.examples[i]}` : undefined}
                    onChange={(e) => set('body', i, e.detail.value)}
                    ariaLabel={`Body parameter {{${i + 1}}}`}
                  />
                </FormField>
              ))}
              {buttonIndexes.map((i) => (
                <FormField key={`u${i}`} label={`Link "${chosen.buttons[i]?.text ?? ''}" {{1}}`}>
                  <Input value={values.buttons[i] ?? ''} onChange={(e) => set('buttons', i, e.detail.value)} />
                </FormField>
              ))}
              {fieldError(send.error, ['template.parameters']) && (
                <Box color="text-status-error">{fieldError(send.error, ['template.parameters'])}</Box>
              )}
            </SpaceBetween>
            <TemplatePreview
              template={chosen}
              values={{ header, body, buttons: values.buttons }}
              label={`Preview of ${chosen.name}`}
            />
          </div>
        )}
      </SpaceBetween>
    </div>
  );
}

/** The composer's text, as the schedule needs it. */
interface ReplyText {
  text: string;
  setText: (text: string) => void;
}

/** A local day and time a few minutes ahead, on a 5-minute mark: where a new schedule starts. */
function soon(): { day: string; time: string } {
  const at = new Date(Date.now() + 10 * 60_000);
  at.setMinutes(Math.ceil(at.getMinutes() / 5) * 5, 0, 0);
  return { day: isoDay(at), time: localTimeOf(at.toISOString()) };
}

/**
 * Scheduling the reply box's text: a Schedule button beside Send (`button`) that opens a day and a time
 * (`panel`, above the buttons); the message is stored `scheduled` and goes at that time.
 */
export function useScheduleSend(conversationId: string, reply: ReplyText, onScheduled: () => void) {
  const { client, flash } = useApp();
  const [open, setOpen] = useState(false);
  const [when, setWhen] = useState(soon);
  const action = useAction();
  const at = when.day && /^\d\d:\d\d$/.test(when.time) ? localInstant(when.day, when.time) : null;
  const past = at !== null && at.getTime() <= Date.now();
  const submit = async () => {
    if (!at || past) return;
    const scheduled = await action.run(() =>
      client.conversations.messages.send(conversationId, { text: reply.text, send_at: at.toISOString() }),
    );
    if (!scheduled) return;
    reply.setText('');
    setOpen(false);
    flash({ type: 'success', content: `Scheduled for ${formatWhen(scheduled.scheduled_at)}.` });
    onScheduled();
  };
  const button = (
    <Button
      iconName="calendar"
      disabled={!reply.text.trim()}
      disabledReason="Write the message first."
      onClick={() => {
        setWhen(soon());
        action.clearError();
        setOpen((o) => !o);
      }}
      ariaExpanded={open}
    >
      Schedule
    </Button>
  );
  const panel = open ? (
    <div role="group" aria-label="Schedule the message">
      <SpaceBetween size="xs">
        <ErrorAlert error={action.error} onDismiss={action.clearError} atFields={['send_at']} />
        <div className="schedule-fields">
          <FormField label="Send on" errorText={fieldError(action.error, ['send_at'])}>
            <DatePicker
              value={when.day}
              onChange={(e) => setWhen((w) => ({ ...w, day: e.detail.value }))}
              isDateEnabled={(d) => isoDay(d) >= isoDay(new Date())}
              openCalendarAriaLabel={(d) => `Choose the day${d ? `, selected ${d}` : ''}`}
            />
          </FormField>
          <FormField label="At" errorText={past ? 'Choose a time in the future.' : undefined}>
            <TimeInput
              value={when.time}
              onChange={(e) => setWhen((w) => ({ ...w, time: e.detail.value }))}
              format="hh:mm"
            />
          </FormField>
          <Button variant="primary" loading={action.busy} disabled={!at || past} onClick={() => void submit()}>
            Schedule send
          </Button>
          <Button variant="link" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </div>
      </SpaceBetween>
    </div>
  ) : null;
  return { button, panel };
}

/** The conversation's messages waiting for their time, each with a cancel. */
export function ScheduledMessages({ conversation: c }: { conversation: Conversation & { messages?: Message[] } }) {
  const { client, flash } = useApp();
  // Read afresh when the thread shows a change (a new message, or one that moved on).
  const seen = (c.messages ?? []).map((m) => `${m.id}:${m.status}`).join();
  const messages = useResource(
    (client) => client.conversations.messages.list(c.id, { limit: 100 }).page(),
    [c.id, seen],
    {
      refreshOn: changesConversation(c.id),
    },
  );
  const cancel = useAction();
  const [canceled, setCanceled] = useState<string[]>([]);
  const scheduled = (messages.data?.data ?? [])
    .filter((m) => m.status === 'scheduled' && !canceled.includes(m.id))
    .sort((a, b) => (a.scheduled_at ?? '').localeCompare(b.scheduled_at ?? ''));
  if (scheduled.length === 0 && !cancel.error) return null;
  return (
    <div role="group" aria-label="Scheduled messages">
      <SpaceBetween size="xxs">
        <ErrorAlert error={cancel.error} onDismiss={cancel.clearError} />
        <ul className="scheduled-list">
          {scheduled.map((m) => (
            <li key={m.id} data-testid="scheduled-message">
              <span>{`Scheduled for ${formatWhen(m.scheduled_at)}`}</span>
              <span className="scheduled-text" title={m.text}>
                {m.text}
              </span>
              <Button
                variant="inline-link"
                ariaLabel={`Cancel the message scheduled for ${formatWhen(m.scheduled_at)}`}
                disabled={cancel.busy}
                onClick={() =>
                  void cancel
                    .run(() => client.conversations.messages.cancel(c.id, m.id))
                    .then((done) => {
                      if (!done) return;
                      setCanceled((ids) => [...ids, m.id]);
                      flash({ type: 'success', content: 'The scheduled message is canceled.' });
                      void messages.reload();
                    })
                }
              >
                Cancel
              </Button>
            </li>
          ))}
        </ul>
      </SpaceBetween>
    </div>
  );
}
