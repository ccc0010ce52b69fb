import { useMemo, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { Schedule } from '@messaging-platform/sdk';
import { useAction, useApp, useEditableList } from '../context';
import { ConfirmAction, DialogFooter, Empty, EmptyUnlessFailed, LoadOlder } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { browserTimeZone, formatDateTime, timeZones } from '../format';
import {
  WEEKDAYS,
  buffersText,
  formatHours,
  hasBuffers,
  parseHours,
  summarizeWeek,
  type Hours,
  type Weekday,
} from '../opening-hours';

const PAGE_SIZE = 50;
const RESOURCE_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
const HOURS_HINT = 'e.g. 09:00–12:30, 13:30–18:00; empty: closed';
/** The buffers offered, in minutes (the API takes any whole number from 0 to 120). */
const BUFFER_CHOICES = [0, 5, 10, 15, 20, 30, 45, 60, 90, 120];

/** A schedule as a table row: its resource is its id. */
type Row = Schedule & { id: string };
const asRow = (s: Schedule): Row => ({ ...s, id: s.resource_id });

/** Settings › Opening hours: when each resource can be booked (admins change them). */
export function OpeningHoursPage() {
  const { client, isAdmin } = useApp();
  const {
    list: schedules,
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
  } = useEditableList<Row>(async (c, cursor) => {
    const page = await c.schedules.list({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }).page();
    return { ...page, data: page.data.map(asRow) };
  });

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="When each resource (a chair, a room, a person) can be booked. A booking outside its hours is refused, and the booking form offers only times within them. A resource without opening hours can be booked at any time."
        >
          Opening hours
        </Header>
      }
    >
      <SpaceBetween size="l">
        {!isAdmin && <Alert type="info">Only admins of your organization can change opening hours.</Alert>}
        <ErrorAlert error={schedules.error} action={<Button onClick={() => void schedules.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={shown ?? []}
          loading={schedules.loading && !schedules.data}
          loadingText="Loading opening hours"
          trackBy="id"
          selectionType={isAdmin ? 'single' : undefined}
          selectedItems={selected}
          onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
          ariaLabels={{
            selectionGroupLabel: 'Resource selection',
            itemSelectionLabel: (_s, r) => `Select ${r.resource_id}`,
            allItemsSelectionLabel: () => 'Select all',
            tableLabel: 'Opening hours',
          }}
          header={
            <Header
              variant="h2"
              counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}
              actions={
                isAdmin && (
                  <SpaceBetween direction="horizontal" size="xs">
                    <Button disabled={!current} onClick={() => current && setEditing(current)}>
                      Edit
                    </Button>
                    <Button disabled={!current} onClick={() => setDeleting(true)}>
                      Delete
                    </Button>
                    <Button variant="primary" onClick={() => setEditing('new')}>
                      New opening hours
                    </Button>
                  </SpaceBetween>
                )
              }
            >
              Resources
            </Header>
          }
          columnDefinitions={[
            { id: 'resource', header: 'Resource', cell: (s) => <code>{s.resource_id}</code>, isRowHeader: true },
            { id: 'week', header: 'Every week', cell: (s) => summarizeWeek(s.weekly_hours) },
            {
              id: 'dates',
              header: 'Special dates',
              cell: (s) => upcomingOverrides(s.date_overrides, s.timezone),
            },
            {
              id: 'buffers',
              header: 'Kept free',
              cell: (s) => (hasBuffers(s) ? buffersText(s) : '—'),
            },
            { id: 'zone', header: 'Time zone', cell: (s) => s.timezone },
            { id: 'updated', header: 'Changed', cell: (s) => formatDateTime(s.updated_at) },
          ]}
          footer={<LoadOlder more={more}>Load more resources</LoadOlder>}
          empty={
            <EmptyUnlessFailed resource={schedules}>
              <Empty
                title="No opening hours"
                action={isAdmin && <Button onClick={() => setEditing('new')}>New opening hours</Button>}
              >
                Every resource can be booked at any time. Give one opening hours to keep bookings within them.
              </Empty>
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
      {editing && (
        <ScheduleModal
          schedule={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(s, created) => {
            setEditing(null);
            done(
              created ? `${s.resource_id} has opening hours.` : `The opening hours of ${s.resource_id} are changed.`,
            );
          }}
        />
      )}
      <ConfirmAction
        visible={deleting}
        close={() => setDeleting(false)}
        header="Delete opening hours"
        confirmText="Delete"
        action={remove}
        run={() => client.schedules.delete(current!.resource_id, { ifMatch: current!.version }).then(() => true)}
        onDone={() => done(`${current!.resource_id} can be booked at any time again.`)}
      >
        <Box variant="p">
          {`${current?.resource_id ?? ''} can then be booked at any time. Its bookings stay as they are.`}
        </Box>
      </ConfirmAction>
    </ContentLayout>
  );
}

/** The next few special dates from today on (today where the schedule is), in words. */
function upcomingOverrides(overrides: Schedule['date_overrides'], timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  const coming = overrides.filter((o) => o.date >= today);
  if (coming.length === 0) return '—';
  const listed = coming.slice(0, 3).map((o) => `${o.date}: ${o.hours.length ? formatHours(o.hours) : 'closed'}`);
  return coming.length > 3 ? `${listed.join('; ')}; ${coming.length - 3} more` : listed.join('; ');
}

interface OverrideRow {
  key: number;
  date: string;
  hours: string;
}

function ScheduleModal({
  schedule,
  onClose,
  onSaved,
}: {
  schedule: Row | undefined;
  onClose: () => void;
  onSaved: (s: Schedule, created: boolean) => void;
}) {
  const { client } = useApp();
  const [resource, setResource] = useState(schedule?.resource_id ?? '');
  const [zone, setZone] = useState(schedule?.timezone ?? browserTimeZone());
  const [week, setWeek] = useState<Record<Weekday, string>>(
    () =>
      Object.fromEntries(
        WEEKDAYS.map(([day]) => [
          day,
          schedule ? formatHours(schedule.weekly_hours[day]) : day === 'sat' || day === 'sun' ? '' : '09:00\u201317:00',
        ]),
      ) as Record<Weekday, string>,
  );
  const [overrides, setOverrides] = useState<OverrideRow[]>(
    () => schedule?.date_overrides.map((o, key) => ({ key, date: o.date, hours: formatHours(o.hours) })) ?? [],
  );
  const [nextKey, setNextKey] = useState(overrides.length);
  const [before, setBefore] = useState(schedule?.buffer_before_minutes ?? 0);
  const [after, setAfter] = useState(schedule?.buffer_after_minutes ?? 0);
  const [tried, setTried] = useState(false);
  const action = useAction();

  const parsedWeek = WEEKDAYS.map(([day]) => [day, parseHours(week[day])] as const);
  const parsedOverrides = overrides.map((o) => parseHours(o.hours));
  const localErrors = {
    resource: !schedule && !RESOURCE_ID.test(resource.trim()) ? 'Letters, digits and _ . : - only (1 to 100).' : '',
    overrideDates: overrides.map((o, i) =>
      !/^\d{4}-\d{2}-\d{2}$/.test(o.date)
        ? 'Choose a date.'
        : overrides.findIndex((other) => other.date === o.date) !== i
          ? 'This date is listed twice.'
          : '',
    ),
  };
  const invalid =
    !!localErrors.resource ||
    localErrors.overrideDates.some(Boolean) ||
    parsedWeek.some(([, p]) => 'error' in p) ||
    parsedOverrides.some((p) => 'error' in p);
  const show = (local: string, paths: string[]) => (tried ? local : '') || fieldError(action.error, paths);
  const hoursOf = (p: ReturnType<typeof parseHours>): Hours[] => ('hours' in p ? p.hours : []);

  const submit = async () => {
    setTried(true);
    if (invalid) return;
    const body = {
      timezone: zone,
      weekly_hours: Object.fromEntries(parsedWeek.map(([day, p]) => [day, hoursOf(p)])) as Record<Weekday, Hours[]>,
      date_overrides: overrides.map((o, i) => ({ date: o.date, hours: hoursOf(parsedOverrides[i] ?? { hours: [] }) })),
      buffer_before_minutes: before,
      buffer_after_minutes: after,
    };
    const saved = await action.run(() =>
      schedule
        ? client.schedules.update(schedule.resource_id, body, { ifMatch: schedule.version })
        : client.schedules.create({ resource_id: resource.trim(), ...body }),
    );
    if (saved) onSaved(saved, !schedule);
  };
  const zones = useMemo(timeZones, []);

  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      size="large"
      header={schedule ? `Opening hours of ${schedule.resource_id}` : 'New opening hours'}
      onDismiss={onClose}
      footer={<DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void submit()} confirmText="Save" />}
    >
      <SpaceBetween size="l">
        <SpaceBetween direction="horizontal" size="l">
          {!schedule && (
            <FormField
              label="Resource"
              description="As your bookings name it: a chair, a room, a person."
              errorText={
                show(localErrors.resource, ['resource_id']) || fieldError(action.error, [], ['schedule_exists'])
              }
            >
              <Input value={resource} onChange={(e) => setResource(e.detail.value)} placeholder="chair-1" autoFocus />
            </FormField>
          )}
          <FormField
            label="Time zone"
            description="The hours are clock times there."
            errorText={fieldError(action.error, ['timezone'])}
          >
            <Select
              selectedOption={{ value: zone, label: zone }}
              onChange={(e) => setZone(e.detail.selectedOption.value ?? zone)}
              options={zones.map((z) => ({ value: z, label: z }))}
              filteringType="auto"
              filteringAriaLabel="Find a time zone"
              virtualScroll
            />
          </FormField>
        </SpaceBetween>
        <SpaceBetween size="s">
          <Header
            variant="h3"
            description={`Hours for each day of the week, ${HOURS_HINT}.`}
            actions={
              <Button onClick={() => setWeek((w) => ({ ...w, tue: w.mon, wed: w.mon, thu: w.mon, fri: w.mon }))}>
                Copy Monday to Tuesday–Friday
              </Button>
            }
          >
            Every week
          </Header>
          <div className="opening-hours-week">
            {parsedWeek.map(([day, parsed], i) => (
              <FormField
                key={day}
                label={WEEKDAYS[i]?.[1]}
                errorText={show('error' in parsed ? parsed.error : '', [`weekly_hours.${day}`])}
              >
                <Input
                  value={week[day]}
                  onChange={(e) => setWeek((w) => ({ ...w, [day]: e.detail.value }))}
                  placeholder="Closed"
                  ariaLabel={`${WEEKDAYS[i]?.[1] ?? day} hours`}
                />
              </FormField>
            ))}
          </div>
        </SpaceBetween>
        <SpaceBetween size="s">
          <Header
            variant="h3"
            description="Dates with other hours than their weekday’s: a holiday (leave the hours empty), a late opening."
            actions={
              <Button
                onClick={() => {
                  setOverrides((list) => [...list, { key: nextKey, date: '', hours: '' }]);
                  setNextKey((k) => k + 1);
                }}
              >
                Add a date
              </Button>
            }
          >
            Special dates
          </Header>
          {overrides.length === 0 && <Box variant="small">None: every date keeps its weekday’s hours.</Box>}
          {overrides.map((o, i) => {
            const parsed = parsedOverrides[i];
            const update = (change: Partial<OverrideRow>) =>
              setOverrides((list) => list.map((row) => (row.key === o.key ? { ...row, ...change } : row)));
            return (
              <SpaceBetween key={o.key} direction="horizontal" size="s" alignItems="end">
                <FormField
                  label={`Special date ${i + 1}`}
                  errorText={show(localErrors.overrideDates[i] ?? '', [`date_overrides.${i}.date`])}
                >
                  <DatePicker
                    value={o.date}
                    onChange={(e) => update({ date: e.detail.value })}
                    placeholder="YYYY/MM/DD"
                    openCalendarAriaLabel={(d) => `Choose the special date${d ? `, selected ${d}` : ''}`}
                  />
                </FormField>
                <FormField
                  label="Hours"
                  errorText={show(parsed && 'error' in parsed ? parsed.error : '', [`date_overrides.${i}.hours`])}
                >
                  <Input
                    value={o.hours}
                    onChange={(e) => update({ hours: e.detail.value })}
                    placeholder="Closed"
                    ariaLabel={`Hours on ${o.date || 'the special date'}`}
                  />
                </FormField>
                <Button
                  variant="icon"
                  iconName="remove"
                  ariaLabel={`Remove ${o.date || 'this date'}`}
                  onClick={() => setOverrides((list) => list.filter((row) => row.key !== o.key))}
                />
              </SpaceBetween>
            );
          })}
        </SpaceBetween>
        <SpaceBetween size="s">
          <Header
            variant="h3"
            description="Time the resource is kept free around each booking, to prepare and to clear up. Bookings already made keep the time they were made with."
          >
            Time between bookings
          </Header>
          <SpaceBetween direction="horizontal" size="l">
            <BufferField side="before" value={before} onChange={setBefore} error={action.error} />
            <BufferField side="after" value={after} onChange={setAfter} error={action.error} />
          </SpaceBetween>
        </SpaceBetween>
        <ErrorAlert
          error={action.error}
          atFields={[
            ...(schedule ? [] : ['resource_id']),
            'timezone',
            'buffer_before_minutes',
            'buffer_after_minutes',
            ...WEEKDAYS.map(([day]) => `weekly_hours.${day}`),
            ...overrides.map((_, i) => `date_overrides.${i}`),
          ]}
        />
      </SpaceBetween>
    </Modal>
  );
}

/** One buffer as a choice of minutes (a value set through the API that is not among them is offered too). */
function BufferField({
  side,
  value,
  onChange,
  error,
}: {
  side: 'before' | 'after';
  value: number;
  onChange: (minutes: number) => void;
  error: unknown;
}) {
  const choices = BUFFER_CHOICES.includes(value) ? BUFFER_CHOICES : [...BUFFER_CHOICES, value].sort((a, b) => a - b);
  const option = (m: number) => ({ value: String(m), label: m === 0 ? 'None' : `${m} minutes` });
  return (
    <FormField
      label={`${side === 'before' ? 'Before' : 'After'} each booking`}
      errorText={fieldError(error, [`buffer_${side}_minutes`])}
    >
      <Select
        selectedOption={option(value)}
        onChange={(e) => onChange(Number(e.detail.selectedOption.value ?? value))}
        options={choices.map(option)}
      />
    </FormField>
  );
}
