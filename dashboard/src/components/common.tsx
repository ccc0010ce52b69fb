import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { OlderPages, Resource } from '../context';
import { formatTime } from '../format';
import { ErrorAlert } from './errors';

/** The empty state of a table. */
export function Empty({
  title,
  children,
  action,
}: {
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <Box textAlign="center" color="inherit" padding={{ vertical: 'm' }}>
      <SpaceBetween size="xs">
        <b>{title}</b>
        {children && (
          <Box variant="p" color="inherit">
            {children}
          </Box>
        )}
        {action}
      </SpaceBetween>
    </Box>
  );
}

/**
 * A table's empty state, unless the list could not be loaded: then it says so (the error shows above the
 * table), rather than claiming there is nothing.
 */
export function EmptyUnlessFailed({ resource, children }: { resource: Resource<unknown>; children: React.ReactNode }) {
  if (resource.error && resource.data === undefined)
    return <Empty title="Not loaded">The list could not be loaded; see the error above.</Empty>;
  return <>{children}</>;
}

/** When a refreshed page's data was loaded, and a warning while background refreshes fail. */
export function Freshness({ resource }: { resource: Resource<unknown> }) {
  if (!resource.loadedAt) return null;
  const at = formatTime(resource.loadedAt.toISOString());
  if (resource.stale || resource.error)
    return (
      <StatusIndicator type="warning">
        Could not refresh: showing what was loaded at {at}.{resource.stale ? ' Trying again.' : ''}
      </StatusIndicator>
    );
  return (
    <Box variant="small" color="text-status-inactive">
      Updated at {at}. New activity appears by itself while this tab is open.
    </Box>
  );
}

/** A dialog that shows a secret this once: a warning to copy it, what it is, and Done. */
export function ShownOnceModal({
  header,
  warning,
  children,
  onClose,
}: {
  header: string;
  warning: { header: string; text: React.ReactNode };
  children: React.ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header={header}
      onDismiss={onClose}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Alert type="warning" header={warning.header}>
          {warning.text}
        </Alert>
        {children}
      </SpaceBetween>
    </Modal>
  );
}

/** A dialog's buttons: a link that closes it, and the primary action (showing progress while `busy`). */
export function DialogFooter({
  onCancel,
  cancelText = 'Cancel',
  onConfirm,
  confirmText,
  busy,
}: {
  onCancel: () => void;
  cancelText?: string;
  onConfirm: () => void;
  confirmText: React.ReactNode;
  busy: boolean;
}) {
  return (
    <Box float="right">
      <SpaceBetween direction="horizontal" size="xs">
        <Button variant="link" onClick={onCancel}>
          {cancelText}
        </Button>
        <Button variant="primary" loading={busy} onClick={onConfirm}>
          {confirmText}
        </Button>
      </SpaceBetween>
    </Box>
  );
}

/** A confirmation dialog for destructive actions; the error of the action shows inside it. */
export function ConfirmModal({
  visible,
  header,
  children,
  confirmText,
  dismissText = 'Cancel',
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  visible: boolean;
  header: string;
  children: React.ReactNode;
  confirmText: string;
  /** The button that closes the dialog without acting (say "Keep booking" where the action is a cancellation). */
  dismissText?: string;
  busy: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible={visible}
      header={header}
      onDismiss={onCancel}
      footer={
        <DialogFooter
          onCancel={onCancel}
          cancelText={dismissText}
          onConfirm={onConfirm}
          confirmText={confirmText}
          busy={busy}
        />
      }
    >
      <SpaceBetween size="m">
        {children}
        <ErrorAlert error={error} />
      </SpaceBetween>
    </Modal>
  );
}

/**
 * A confirmation dialog that runs one action (from `useAction`): busy and failing inside the dialog, closed
 * on success, then `onDone` with what the action returned (a falsy result is taken as nothing done).
 */
export function ConfirmAction<T>({
  visible,
  close,
  action,
  run,
  onDone,
  ...dialog
}: {
  visible: boolean;
  close: () => void;
  action: {
    busy: boolean;
    error: unknown;
    run: (act: () => Promise<T>) => Promise<T | undefined>;
    clearError: () => void;
  };
  run: () => Promise<T>;
  onDone: (result: T) => void;
  header: string;
  confirmText: string;
  dismissText?: string;
  children: React.ReactNode;
}) {
  return (
    <ConfirmModal
      {...dialog}
      visible={visible}
      busy={action.busy}
      error={action.error}
      onCancel={() => {
        close();
        action.clearError();
      }}
      onConfirm={() =>
        void action.run(run).then((result) => {
          if (!result) return;
          close();
          onDone(result);
        })
      }
    />
  );
}

/** Pretty JSON in a scrollable code block (styled by dashboard.css, no inline styles). */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json-block" aria-label={label} tabIndex={0}>
      <code>{JSON.stringify(value, null, 2)}</code>
    </pre>
  );
}

/** A list's "load older" button, with the error of its last try: shown while older pages remain. */
export function LoadOlder({
  more,
  children,
}: {
  more: Pick<OlderPages, 'hasMore' | 'load' | 'busy' | 'error' | 'clearError'>;
  children: React.ReactNode;
}) {
  if (!more.hasMore) return null;
  return (
    <Box textAlign="center">
      <SpaceBetween size="xs">
        <ErrorAlert error={more.error} onDismiss={more.clearError} />
        <Button onClick={() => void more.load()} loading={more.busy}>
          {children}
        </Button>
      </SpaceBetween>
    </Box>
  );
}
