import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import TimeInput from '@cloudscape-design/components/time-input';
import {
  ConflictError,
  type Booking,
  type CreateBookingParams,
  type Customer,
  type Schedule,
} from '@messaging-platform/sdk';
import { isSessionOver, useAction, useApp, useResource, useSettled } from '../context';
import { customerByPhone, hasNameText, looksLikePhone, nameQuery } from '../components/phone-search';
import { ConfirmModal, Empty, DialogFooter, EmptyUnlessFailed } from '../components/common';
import { ErrorAlert, RequestId, fieldError } from '../components/errors';
import { BookingList } from '../components/booking-list';
import { useMediaQuery } from '../media';
import {
  NO_PAYMENT_CHOSEN,
  PaymentRequirementField,
  paymentChoiceProblem,
  paymentParam,
} from '../components/payment-requirement';
import {
  browserTimeZone,
  customerContact,
  customerLabel,
  formatDateTime,
  formatTime,
  isoDay,
  localInstant,
  localTimeOf,
} from '../format';
import { buffersText, hasBuffers } from '../opening-hours';

type View = 'list' | 'day' | 'week';
/** Narrower than this, the page is on a phone. */
const PHONE = '(max-width: 688px)';

/** The status changes offered for the selected booking, as the API allows them. */
type StatusChange = 'confirmed' | 'completed' | 'no_show';

/** pending → confirmed; confirmed → completed or no-show (once it has started: 422 booking_not_started before). */
const NEXT_STATUSES: Partial<Record<Booking['status'], StatusChange[]>> = {
  pending: ['confirmed'],
  confirmed: ['completed', 'no_show'],
};

const STATUS_ACTION: Record<StatusChange, { button: string; done: string }> = {
  confirmed: { button: 'Confirm', done: 'is confirmed' },
  completed: { button: 'Mark completed', done: 'is marked completed' },
  no_show: { button: 'Mark no-show', done: 'is marked as a no-show' },
};

/** The current time, renewed every `everyMs`, so what depends on it (a booking has started) updates. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Monday of the week of `day`. */
function weekStart(day: Date): Date {
  const d = new Date(day.getFullYear(), day.getMonth(), day.getDate());
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d;
}

/** Bookings: a list and a day or week view; create, reschedule, confirm, mark completed or no-show, cancel. */
export function BookingsPage() {
  const { client, flash } = useApp();
  // On a phone the page opens on the week, as cards in time order (components/booking-list.tsx), not a table.
  const phone = useMediaQuery(PHONE);
  const [view, setView] = useState<View>(() => (window.matchMedia(PHONE).matches ? 'week' : 'list'));
  // The resources' opening hours, for the calendar's days and the booking form's resource choices.
  const schedules = useResource((c) => c.schedules.list({ limit: 100 }).page(), []);
  const [anchor, setAnchor] = useState(isoDay(new Date()));
  const [showCancelled, setShowCancelled] = useState(false);
  const [selected, setSelected] = useState<Booking[]>([]);
  const [editing, setEditing] = useState<Booking | 'new' | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [reason, setReason] = useState('');
  const cancel = useAction();
  const statusChange = useAction();
  const notify = useAction();
  const [changingTo, setChangingTo] = useState<StatusChange | null>(null);
  const now = useNow(30_000);

  const range = useMemo(() => {
    const day = localInstant(anchor, '00:00');
    if (view === 'day') return { from: day, to: new Date(day.getTime() + 86_400_000), days: 1 };
    if (view === 'week') {
      const start = weekStart(day);
      return { from: start, to: new Date(start.getTime() + 7 * 86_400_000), days: 7 };
    }
    return { from: new Date(Date.now() - 86_400_000), to: undefined, days: 0 };
  }, [view, anchor]);

  const bookings = useResource(
    (c) =>
      c.bookings
        .list({ from: range.from, to: range.to, limit: 100 })
        .toArray({ max: 500 })
        .then((list) => list.sort((a, b) => a.start_at.localeCompare(b.start_at))),
    [range.from.getTime(), range.to?.getTime()],
    { pollMs: 30_000 },
  );
  const items = (bookings.data ?? []).filter((b) => showCancelled || b.status !== 'cancelled');
  // The selected booking as last loaded (a reload may have brought a newer version).
  const current = selected[0] && (bookings.data?.find((b) => b.id === selected[0]!.id) ?? selected[0]);
  const active = current && (current.status === 'pending' || current.status === 'confirmed');
  // How a booking went (completed, no-show) can be told once it has started.
  const notStarted = current?.status === 'confirmed' && Date.parse(current.start_at) > now;

  const changeStatus = (b: Booking, to: StatusChange) => {
    setChangingTo(to);
    void statusChange
      .run(() => client.bookings.update(b.id, { status: to }, { ifMatch: b.version }))
      .then((updated) => {
        setChangingTo(null);
        if (!updated) return;
        flash({
          type: 'success',
          content: `${updated.service} on ${formatDateTime(updated.start_at)} ${STATUS_ACTION[to].done}.`,
        });
        setSelected([updated]);
        void bookings.reload();
      });
  };
  const statusButtons = (current ? (NEXT_STATUSES[current.status] ?? []) : []).map((to) => {
    const tooEarly = to !== 'confirmed' && notStarted;
    return (
      <Button
        key={to}
        disabled={tooEarly || (statusChange.busy && changingTo !== to)}
        disabledReason={
          tooEarly ? `Possible once the booking has started (${formatDateTime(current?.start_at)}).` : undefined
        }
        loading={statusChange.busy && changingTo === to}
        onClick={() => current && changeStatus(current, to)}
      >
        {STATUS_ACTION[to].button}
      </Button>
    );
  });

  // The customer is told where the booking stands in a conversation; one that has ended has nothing to tell
  // (unless it was cancelled).
  const notifiable =
    current &&
    (current.status === 'cancelled' ||
      ((current.status === 'pending' || current.status === 'confirmed') && Date.parse(current.end_at) > now));
  const messageCustomer = (b: Booking) =>
    void notify
      .run(() => client.bookings.notify(b.id))
      .then((message) => {
        if (!message) return;
        flash({
          type: 'success',
          content: `Message to ${customerLabel(b.customer)} on its way: “${message.text}”`,
        });
      });

  const closeCancel = () => {
    setCancelling(null);
    setReason('');
    cancel.clearError();
  };
  const confirmCancel = () => {
    const b = cancelling;
    if (!b) return;
    void cancel
      .run(() =>
        client.bookings.cancel(b.id, reason.trim() ? { reason: reason.trim() } : undefined, { ifMatch: b.version }),
      )
      .then((cancelled) => {
        if (!cancelled) return;
        flash({
          type: 'success',
          content: `${cancelled.service} on ${formatDateTime(cancelled.start_at)} is cancelled.`,
        });
        setCancelling(null);
        setReason('');
        setSelected([]);
        void bookings.reload();
      });
  };

  // The period's title, and the actions on the selected booking.
  const actionsHeader = (
    <Header
      variant="h2"
      counter={bookings.data ? `(${items.length})` : undefined}
      description={
        notStarted
          ? `Mark completed or no-show once the booking has started (${formatDateTime(current.start_at)}).`
          : undefined
      }
      actions={
        <SpaceBetween direction="horizontal" size="xs">
          <Button iconName="refresh" ariaLabel="Refresh bookings" onClick={() => void bookings.reload()} />
          {statusButtons}
          <Button disabled={!active} onClick={() => current && setEditing(current)}>
            Reschedule
          </Button>
          <Button disabled={!active} onClick={() => current && setCancelling(current)}>
            Cancel booking
          </Button>
          <Button
            disabled={!notifiable}
            disabledReason={current && !notifiable ? 'The booking has ended: nothing to tell.' : undefined}
            loading={notify.busy}
            onClick={() => current && messageCustomer(current)}
          >
            Message customer
          </Button>
        </SpaceBetween>
      }
    >
      {view === 'list'
        ? 'Recent and upcoming bookings'
        : view === 'day'
          ? 'Bookings of the day'
          : 'Bookings of the week'}
    </Header>
  );
  // On a phone the day and week are the agenda alone: a tapped booking is selected, and its actions stay
  // in view at the bottom. The recent-and-upcoming list is cards.
  const agendaOnly = phone && view !== 'list';

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Appointments of your customers. A resource (a chair, a room, a person) is never booked twice at once."
          actions={
            <Button variant="primary" onClick={() => setEditing('new')}>
              New booking
            </Button>
          }
        >
          Bookings
        </Header>
      }
    >
      <SpaceBetween size="l">
        <SpaceBetween direction="horizontal" size="s" alignItems="end">
          <SegmentedControl
            label="View"
            selectedId={view}
            onChange={(e) => setView(e.detail.selectedId as View)}
            options={[
              { id: 'list', text: 'Recent and upcoming' },
              { id: 'day', text: 'Day' },
              { id: 'week', text: 'Week' },
            ]}
          />
          {view !== 'list' && (
            <SpaceBetween direction="horizontal" size="xxs" alignItems="center">
              <Button
                iconName="angle-left"
                variant="icon"
                ariaLabel={view === 'day' ? 'Previous day' : 'Previous week'}
                onClick={() => setAnchor(shiftDay(anchor, view === 'day' ? -1 : -7))}
              />
              <DatePicker
                value={anchor}
                onChange={(e) => e.detail.value && setAnchor(e.detail.value)}
                ariaLabel="Day shown"
                openCalendarAriaLabel={(d) => `Choose the day${d ? `, selected ${d}` : ''}`}
              />
              <Button
                iconName="angle-right"
                variant="icon"
                ariaLabel={view === 'day' ? 'Next day' : 'Next week'}
                onClick={() => setAnchor(shiftDay(anchor, view === 'day' ? 1 : 7))}
              />
              <Button variant="inline-link" onClick={() => setAnchor(isoDay(new Date()))}>
                Today
              </Button>
            </SpaceBetween>
          )}
          <Button onClick={() => setShowCancelled((s) => !s)}>
            {showCancelled ? 'Hide cancelled' : 'Show cancelled'}
          </Button>
        </SpaceBetween>
        <ErrorAlert error={bookings.error} action={<Button onClick={() => void bookings.reload()}>Retry</Button>} />
        <ErrorAlert
          error={statusChange.error}
          header="The status did not change"
          onDismiss={statusChange.clearError}
          action={
            <Button
              onClick={() => {
                statusChange.clearError();
                void bookings.reload();
              }}
            >
              Reload bookings
            </Button>
          }
        />
        <ErrorAlert error={notify.error} header="The message was not sent" onDismiss={notify.clearError} />
        {view !== 'list' && (
          <Calendar
            from={range.from}
            days={range.days}
            bookings={items}
            schedules={schedules.data?.data ?? []}
            {...(agendaOnly
              ? {
                  selectedId: current?.id,
                  onSelect: (b: Booking) => {
                    setSelected(current?.id === b.id ? [] : [b]);
                    statusChange.clearError();
                    notify.clearError();
                  },
                }
              : {})}
          />
        )}
        {agendaOnly ? (
          <div className="agenda-actions">
            <Container header={actionsHeader}>
              {current ? (
                <Box>
                  <b>{`${formatDateTime(current.start_at)} – ${formatTime(current.end_at)}`}</b> {current.service} ·{' '}
                  {customerLabel(current.customer)}
                </Box>
              ) : (
                <Box color="text-body-secondary">Tap a booking to act on it.</Box>
              )}
            </Container>
          </div>
        ) : (
          <BookingList
            phone={phone}
            items={items}
            loading={bookings.loading && !bookings.data}
            selected={selected}
            onSelect={(chosen) => {
              setSelected(chosen);
              statusChange.clearError();
              notify.clearError();
            }}
            header={actionsHeader}
            empty={
              <EmptyUnlessFailed resource={bookings}>
                <Empty title="No bookings" action={<Button onClick={() => setEditing('new')}>New booking</Button>}>
                  Nothing is booked in this period.
                </Empty>
              </EmptyUnlessFailed>
            }
          />
        )}
      </SpaceBetween>
      {editing && (
        <BookingModal
          booking={editing === 'new' ? null : editing}
          knownResources={knownResources(schedules.data?.data ?? [], bookings.data ?? [])}
          onClose={() => setEditing(null)}
          onSaved={(b, created) => {
            setEditing(null);
            setSelected([]);
            flash({
              type: 'success',
              content: `${b.service} ${created ? 'booked' : 'moved'} for ${formatDateTime(b.start_at)}.`,
            });
            void bookings.reload();
          }}
        />
      )}
      <ConfirmModal
        visible={!!cancelling}
        header="Cancel booking"
        confirmText="Cancel booking"
        dismissText="Keep booking"
        busy={cancel.busy}
        error={cancel.error}
        onConfirm={confirmCancel}
        onCancel={closeCancel}
      >
        <Box variant="p">
          Cancel <b>{cancelling?.service}</b> for {cancelling && customerLabel(cancelling.customer)} on{' '}
          {formatDateTime(cancelling?.start_at)}? The time becomes free again.
        </Box>
        <FormField label="Reason" description="Optional; sent with the booking.cancelled event.">
          <Input value={reason} onChange={(e) => setReason(e.detail.value)} />
        </FormField>
      </ConfirmModal>
    </ContentLayout>
  );
}

/** `YYYY-MM-DD` moved by whole days (a local date: no clock change shifts it). */
function shiftDay(day: string, by: number): string {
  const d = localInstant(day, '12:00');
  return isoDay(new Date(d.getFullYear(), d.getMonth(), d.getDate() + by));
}

/** The resources a booking can name: those with opening hours and those already booked, A to Z. */
function knownResources(schedules: Schedule[], bookings: Booking[]): string[] {
  const ids = [...schedules.map((s) => s.resource_id), ...bookings.map((b) => b.resource_id ?? '')];
  return [...new Set(ids.filter(Boolean))].sort((a, b) => a.localeCompare(b));
}

const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * Each resource's hours on a date (its override, else its weekday's), as clock times in its own zone;
 * a zone other than the browser's is named.
 */
function openingOn(schedules: Schedule[], date: string, day: Date): { text: string; closed: boolean } | null {
  if (schedules.length === 0) return null;
  const here = browserTimeZone();
  const parts = schedules.flatMap((s) => {
    const hours =
      s.date_overrides.find((o) => o.date === date)?.hours ?? s.weekly_hours[WEEKDAY_KEYS[day.getDay()]!] ?? [];
    if (!hours.length) return [];
    const times = hours.map((h) => `${h.start}\u2013${h.end}`).join(', ');
    const zone = s.timezone === here ? '' : ` (${s.timezone})`;
    return [schedules.length > 1 ? `${s.resource_id} ${times}${zone}` : `${times}${zone}`];
  });
  return parts.length ? { text: `Open ${parts.join('; ')}`, closed: false } : { text: 'Closed', closed: true };
}

function Calendar({
  from,
  days,
  bookings,
  schedules,
  selectedId,
  onSelect,
}: {
  from: Date;
  days: number;
  bookings: Booking[];
  schedules: Schedule[];
  /** With `onSelect`, each booking is a button that selects it (the phone's agenda). */
  selectedId?: string;
  onSelect?: (booking: Booking) => void;
}) {
  const today = isoDay(new Date());
  const columns = Array.from(
    { length: days },
    (_, i) => new Date(from.getFullYear(), from.getMonth(), from.getDate() + i),
  );
  const label = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  return (
    <div className="calendar-frame">
      <div className={`calendar days-${days}`} role="list" aria-label="Calendar">
        {columns.map((day) => {
          const key = isoDay(day);
          const todays = bookings.filter((b) => isoDay(new Date(b.start_at)) === key);
          const opening = openingOn(schedules, key, day);
          return (
            <div
              key={key}
              className={`calendar-day${key === today ? ' today' : ''}${opening?.closed ? ' closed' : ''}`}
              role="listitem"
              aria-label={label.format(day)}
            >
              <Box variant="h3" fontSize="heading-s">
                {label.format(day)}
              </Box>
              {opening && <div className="calendar-hours">{opening.text}</div>}
              {todays.length === 0 && !opening?.closed && (
                <Box color="text-status-inactive" fontSize="body-s">
                  Free
                </Box>
              )}
              {todays.map((b) => {
                const className = `calendar-item${b.status === 'cancelled' ? ' cancelled' : ''}`;
                const text = (
                  <>
                    <b>
                      {formatTime(b.start_at)}–{formatTime(b.end_at)}
                    </b>{' '}
                    {b.service}
                    <br />
                    {customerLabel(b.customer)}
                    {b.resource_id ? ` · ${b.resource_id}` : ''}
                    {b.status !== 'confirmed' && b.status !== 'cancelled' ? ` · ${b.status.replace('_', '-')}` : ''}
                  </>
                );
                return onSelect ? (
                  <button
                    key={b.id}
                    type="button"
                    className={`${className} selectable`}
                    aria-pressed={b.id === selectedId}
                    onClick={() => onSelect(b)}
                  >
                    {text}
                  </button>
                ) : (
                  <div key={b.id} className={className}>
                    {text}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}

const NEW_CUSTOMER: SelectProps.Option = { value: 'new', label: 'New customer…' };
const RESOURCE_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
/** The API's field paths that each field of the booking form shows the errors of. */
const BOOKING_FIELDS = {
  customer: ['customer.id', 'conversation_id'],
  phone: ['customer.phone'],
  name: ['customer.name'],
  service: ['service'],
  resource: ['resource_id'],
  time: ['start_at', 'end_at', 'timezone'],
  payment: ['payment'],
};
const customerOption = (c: Customer): SelectProps.Option => ({
  value: c.id,
  label: customerLabel(c),
  description: customerContact(c),
});

function BookingModal({
  booking,
  knownResources,
  onClose,
  onSaved,
}: {
  booking: Booking | null;
  /** The resources with opening hours or bookings: offered first, so a typo does not make a new one. */
  knownResources: string[];
  onClose: () => void;
  onSaved: (b: Booking, created: boolean) => void;
}) {
  const { client, sessionEnded } = useApp();
  const customers = useResource(
    async (c) => (await c.customers.list({ limit: 100 }).page()).data.map(customerOption),
    [],
  );
  // Past the newest 100, customers are found by what is typed into the picker's filter: the one with that
  // number, or those whose name (or a later word of it) starts with it (the API's name search). Once typing pauses, and only the
  // latest lookup counts. Found options carry the text as typed, so the picker's own filter keeps them in view.
  const [found, setFound] = useState<SelectProps.Option[]>([]);
  const [lookingUp, setLookingUp] = useState(false);
  const lookup = useRef<{ timer?: ReturnType<typeof setTimeout>; latest: number }>({ latest: 0 });
  useEffect(() => () => clearTimeout(lookup.current.timer), []);
  const lookUp = (text: string) => {
    const search = ++lookup.current.latest;
    clearTimeout(lookup.current.timer);
    setFound([]);
    setLookingUp(false);
    const typed = text.trim();
    if (!looksLikePhone(typed) && !hasNameText(typed)) return;
    setLookingUp(true);
    lookup.current.timer = setTimeout(() => {
      const customersFound = looksLikePhone(typed)
        ? customerByPhone(client, typed).then((c) => (c ? [c] : []))
        : client.customers
            .list({ name: nameQuery(typed), limit: 20 })
            .page()
            .then((page) => page.data);
      customersFound
        .then((list) => {
          if (search === lookup.current.latest)
            setFound(list.map((c) => ({ ...customerOption(c), filteringTags: [text] })));
        })
        .catch((error: unknown) => {
          if (isSessionOver(error)) sessionEnded();
        })
        .finally(() => {
          if (search === lookup.current.latest) setLookingUp(false);
        });
    }, 300);
  };
  const customerOptions = [
    ...(customers.data ?? []).filter((o) => !found.some((f) => f.value === o.value)),
    ...found,
    NEW_CUSTOMER,
  ];
  const tomorrow = new Date(Date.now() + 86_400_000);
  const [customer, setCustomer] = useState<SelectProps.Option | null>(null);
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [service, setService] = useState(booking?.service ?? '');
  const [resource, setResource] = useState(booking?.resource_id ?? '');
  const [day, setDay] = useState(booking ? isoDay(new Date(booking.start_at)) : isoDay(tomorrow));
  const [start, setStart] = useState(booking ? localTimeOf(booking.start_at) : '10:00');
  const [end, setEnd] = useState(booking ? localTimeOf(booking.end_at) : '10:30');
  const [payment, setPayment] = useState(NO_PAYMENT_CHOSEN);
  const [tried, setTried] = useState(false);
  // The resource and time last sent, so a refusal stays shown while they are what the form holds.
  const [sent, setSent] = useState('');
  const action = useAction();
  const startAt = localInstant(day, start);
  const endAt = localInstant(day, end);
  const chosen = customer ?? (customers.data?.length ? null : NEW_CUSTOMER);
  const errors = {
    customer: !booking && !chosen ? 'Choose a customer.' : '',
    phone:
      !booking && chosen?.value === 'new' && !/^\+[1-9]\d{7,14}$/.test(phone.trim())
        ? 'International format, e.g. +4915112345678.'
        : '',
    name: '',
    service: !booking && service.trim() === '' ? 'What is booked, e.g. "Dental cleaning".' : '',
    resource: resource && !RESOURCE_ID.test(resource) ? 'Letters, digits and _ . : - only.' : '',
    time:
      Number.isNaN(startAt.getTime()) || endAt <= startAt
        ? 'The end must be after the start.'
        : startAt.getTime() < Date.now()
          ? 'Choose a time in the future.'
          : '',
    payment: booking ? '' : paymentChoiceProblem(payment),
  };
  const invalid = Object.values(errors).some(Boolean);
  const refused =
    action.error instanceof ConflictError && action.error.code === 'booking_conflict' ? action.error : null;
  // Once another time or resource is chosen, the booking that was in the way no longer is: its alert goes
  // (it may be in the way through the time kept free around bookings, so the time sent counts as in the way).
  const inTheWay = refused?.problem.conflicting_booking;
  const chosenResource = booking ? booking.resource_id : resource;
  const conflict =
    refused &&
    (!inTheWay ||
      sent === `${chosenResource ?? ''} ${startAt.getTime()} ${endAt.getTime()}` ||
      (inTheWay.resource_id === chosenResource && overlapsTime(inTheWay, startAt, endAt)))
      ? refused
      : null;

  const submit = async () => {
    setTried(true);
    if (invalid) return;
    setSent(`${chosenResource ?? ''} ${startAt.getTime()} ${endAt.getTime()}`);
    if (booking) {
      const saved = await action.run(() =>
        client.bookings.update(
          booking.id,
          { start_at: startAt.toISOString(), end_at: endAt.toISOString() },
          { ifMatch: booking.version },
        ),
      );
      if (saved) onSaved(saved, false);
      return;
    }
    const params: CreateBookingParams = {
      customer:
        chosen!.value === 'new'
          ? { phone: phone.trim(), ...(name.trim() ? { name: name.trim() } : {}) }
          : { id: chosen!.value! },
      service: service.trim(),
      start_at: startAt.toISOString(),
      end_at: endAt.toISOString(),
      timezone: browserTimeZone(),
      ...(resource ? { resource_id: resource } : {}),
      ...paymentParam(payment),
    };
    const created = await action.run(() => client.bookings.create(params));
    if (created) onSaved(created, true);
  };
  // The form's own checks first; else what the API said about the field's values.
  const show = (key: keyof typeof errors) =>
    (tried ? errors[key] : '') || fieldError(action.error, BOOKING_FIELDS[key]);

  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header={booking ? `Reschedule ${booking.service}` : 'New booking'}
      onDismiss={onClose}
      footer={
        <DialogFooter
          onCancel={onClose}
          busy={action.busy}
          onConfirm={() => void submit()}
          confirmText={booking ? 'Reschedule' : 'Book'}
        />
      }
    >
      <SpaceBetween size="m">
        {conflict && (
          <Alert type="error" header="This time is already booked">
            <SpaceBetween size="xxs">
              <span>{conflictText(conflict, startAt, endAt)}</span>
              <span>Choose another time or another resource.</span>
              <RequestId error={conflict} />
            </SpaceBetween>
          </Alert>
        )}
        {!booking && (
          <>
            <FormField label="Customer" errorText={show('customer')}>
              <Select
                selectedOption={chosen}
                onChange={(e) => setCustomer(e.detail.selectedOption)}
                options={customerOptions}
                onLoadItems={(e) => lookUp(e.detail.filteringText)}
                filteringPlaceholder="Name or phone number"
                statusType={customers.loading || lookingUp ? 'loading' : 'finished'}
                loadingText="Loading customers"
                placeholder="Choose a customer"
                filteringType="auto"
              />
            </FormField>
            {chosen?.value === 'new' && (
              <SpaceBetween direction="horizontal" size="s">
                <FormField label="Phone" errorText={show('phone')}>
                  <Input
                    value={phone}
                    onChange={(e) => setPhone(e.detail.value)}
                    placeholder="+4915112345678"
                    inputMode="tel"
                  />
                </FormField>
                <FormField label="Name" description="Optional" errorText={show('name')}>
                  <Input value={name} onChange={(e) => setName(e.detail.value)} invalid={!!show('name')} />
                </FormField>
              </SpaceBetween>
            )}
            <FormField label="Service" errorText={show('service')}>
              <Input value={service} onChange={(e) => setService(e.detail.value)} placeholder="e.g. Dental cleaning" />
            </FormField>
            <FormField
              label="Resource"
              description="Optional: a chair, room or person that cannot be double-booked."
              constraintText={
                resource && !knownResources.includes(resource)
                  ? `${resource} is a new resource: it has no opening hours or bookings yet.`
                  : undefined
              }
              errorText={show('resource')}
            >
              <Autosuggest
                value={resource}
                onChange={(e) => setResource(e.detail.value)}
                options={knownResources.map((r) => ({ value: r }))}
                enteredTextLabel={(value) => `Use a new resource: ${value}`}
                placeholder={knownResources[0] ?? 'chair-1'}
                empty="No resource yet: type a name for the first one."
                ariaLabel="Resource"
                clearAriaLabel="Clear the resource"
              />
            </FormField>
            <PaymentRequirementField value={payment} onChange={setPayment} errorText={show('payment')} />
          </>
        )}
        <SpaceBetween direction="horizontal" size="s">
          <FormField label="Day" description={`Times in ${browserTimeZone()}`}>
            <DatePicker
              value={day}
              onChange={(e) => setDay(e.detail.value)}
              openCalendarAriaLabel={(d) => `Choose the day${d ? `, selected ${d}` : ''}`}
            />
          </FormField>
          <FormField label="Start time" description="HH:MM">
            <TimeInput value={start} onChange={(e) => setStart(e.detail.value)} format="hh:mm" />
          </FormField>
          <FormField label="End time" description="HH:MM" errorText={show('time')}>
            <TimeInput value={end} onChange={(e) => setEnd(e.detail.value)} format="hh:mm" />
          </FormField>
        </SpaceBetween>
        <FreeTimes
          resource={booking ? (booking.resource_id ?? '') : resource}
          day={day}
          start={startAt}
          end={endAt}
          moving={booking?.id}
          refused={refused}
          onPick={(slot) => {
            setStart(localTimeOf(slot.start_at));
            setEnd(localTimeOf(slot.end_at));
          }}
        />
        {!refused && <ErrorAlert error={action.error} atFields={Object.values(BOOKING_FIELDS).flat()} />}
      </SpaceBetween>
    </Modal>
  );
}

/** How many of the free slots of the day the booking form offers: those nearest the chosen start. */
const OFFERED_SLOTS = 8;

interface Span {
  start_at: string;
  end_at: string;
}
/** An instant moved by a number of minutes. */
const withBuffers = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** Half-open, as the API compares bookings: one ending at 10:00 leaves 10:00 free. */
const overlapsTime = (span: Span, start: Date, end: Date) =>
  Date.parse(span.start_at) < end.getTime() && start.getTime() < Date.parse(span.end_at);

/**
 * The resource's day as the booking form shows it: whether the chosen time is free, the times already
 * booked, and the free slots of the chosen length nearest the chosen start (quarter-hour steps), which
 * fill the times when picked. A booking being moved does not stand in its own way. Read again after the
 * API refused a booking (`refused`): someone else took a time meanwhile.
 */
function FreeTimes({
  resource,
  day,
  start,
  end,
  moving,
  refused,
  onPick,
}: {
  resource: string;
  day: string;
  start: Date;
  end: Date;
  moving: string | undefined;
  refused: unknown;
  onPick: (slot: Span) => void;
}) {
  const minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
  // What to ask for (nothing while the form's values could not be asked about), as one string so that it
  // settles by value once typing pauses.
  const wanted =
    RESOURCE_ID.test(resource) && minutes >= 5 && minutes <= 1440 && /^\d{4}-\d{2}-\d{2}$/.test(day)
      ? JSON.stringify({ resource, day, minutes })
      : '';
  const ask = useSettled(wanted, 400);
  const availability = useResource(
    async (c) => {
      if (!ask) return null;
      const asked = JSON.parse(ask) as { resource: string; day: string; minutes: number };
      const found = await c.bookings.availability({
        resource_id: asked.resource,
        from: localInstant(asked.day, '00:00'),
        to: localInstant(asked.day, '24:00'),
        duration_minutes: asked.minutes,
        step_minutes: 15,
        ...(moving ? { reschedule_booking_id: moving } : {}),
      });
      return { ...found, asked };
    },
    [ask, moving],
  );
  // `reload` is a new function each render: read through a ref, so only a new refusal reloads.
  const reload = useRef(availability.reload);
  reload.current = availability.reload;
  useEffect(() => {
    if (refused) void reload.current();
  }, [refused]);
  // Only the answer for what is chosen now is shown (not one for another resource, day or length). The
  // status line is one live region throughout, so a screen reader hears free, booked or checking.
  const answer = availability.data;
  const shown =
    wanted && answer?.asked.resource === resource && answer.asked.day === day && answer.asked.minutes === minutes
      ? answer
      : undefined;
  const span = (b: Span) =>
    `${formatTime(b.start_at)}–${isoDay(new Date(b.end_at)) === day ? formatTime(b.end_at) : '24:00'}`;
  // The day's opening hours are the time not closed (nothing is closed for a resource without them).
  const openingHours = (answer: { from: string; to: string; closed: Span[] }) => {
    if (answer.closed.length === 0) return '';
    const open: Span[] = [];
    let cursor = answer.from;
    for (const c of answer.closed) {
      if (Date.parse(c.start_at) > Date.parse(cursor)) open.push({ start_at: cursor, end_at: c.start_at });
      cursor = c.end_at;
    }
    if (Date.parse(answer.to) > Date.parse(cursor)) open.push({ start_at: cursor, end_at: answer.to });
    return open.length ? `Open that day: ${open.map(span).join(', ')}.` : 'Closed that day.';
  };
  // The form holds a day and clock times: slots it cannot hold are left out (ending at midnight, or in the
  // hour a clock change repeats, which those clock times would name the other way).
  const fits = (at: string) =>
    isoDay(new Date(at)) === day && localInstant(day, localTimeOf(at)).getTime() === Date.parse(at);
  const nearest = [...(shown?.slots ?? []).filter((s) => fits(s.start_at) && fits(s.end_at))]
    .sort(
      (a, b) => Math.abs(Date.parse(a.start_at) - start.getTime()) - Math.abs(Date.parse(b.start_at) - start.getTime()),
    )
    .slice(0, OFFERED_SLOTS)
    .sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at));
  const status = !wanted ? null : availability.error ? (
    <Box variant="small">The free times of {resource} could not be read.</Box>
  ) : !shown ? (
    <StatusIndicator type="loading">Checking the free times of {resource}…</StatusIndicator>
  ) : shown.closed.some((c) => overlapsTime(c, start, end)) ? (
    <StatusIndicator type="warning">{resource} is not open at this time.</StatusIndicator>
  ) : shown.busy.some((b) => overlapsTime(b, start, end)) ? (
    <StatusIndicator type="warning">{resource} is booked at this time.</StatusIndicator>
  ) : shown.held.some((b) =>
      overlapsTime(b, withBuffers(start, -shown.buffer_before_minutes), withBuffers(end, shown.buffer_after_minutes)),
    ) ? (
    <StatusIndicator type="warning">{resource} is too close to another booking at this time.</StatusIndicator>
  ) : (
    <StatusIndicator type="success">{resource} is free at this time.</StatusIndicator>
  );
  return (
    <div>
      <div aria-live="polite">{status}</div>
      {shown && (
        <SpaceBetween size="xs">
          <Box variant="small" padding={{ top: 'xxs' }}>
            {openingHours(shown)}{' '}
            {shown.busy.length ? `Booked that day: ${shown.busy.map(span).join(', ')}.` : 'Nothing booked that day.'}
            {hasBuffers(shown) && ` It keeps ${buffersText(shown)} free.`}
          </Box>
          {nearest.length ? (
            <div role="group" aria-labelledby="free-times-label">
              <Box variant="small" padding={{ bottom: 'xxs' }}>
                <span id="free-times-label">Free {minutes}-minute times nearby:</span>
              </Box>
              <SpaceBetween direction="horizontal" size="xs">
                {nearest.map((slot) => (
                  <Button key={slot.start_at} onClick={() => onPick(slot)} ariaLabel={`Choose ${span(slot)}`}>
                    {formatTime(slot.start_at)}
                  </Button>
                ))}
              </SpaceBetween>
            </div>
          ) : (
            <Box variant="small">No free {minutes}-minute time left that day.</Box>
          )}
        </SpaceBetween>
      )}
    </div>
  );
}

/**
 * When the booking in the way (the problem's `conflicting_booking`) holds the resource, in the user's zone;
 * when it does not overlap the time asked for, the buffers kept around bookings are what clash.
 */
function conflictText(conflict: ConflictError, start: Date, end: Date): string {
  const other = conflict.problem.conflicting_booking;
  if (!other) return conflict.detail;
  const booked = `Resource ${other.resource_id} is already booked from ${formatDateTime(other.start_at)} to ${formatDateTime(other.end_at)}.`;
  return overlapsTime(other, start, end)
    ? booked
    : `${booked} That is too close: the resource is kept free for a while before and after each booking.`;
}
