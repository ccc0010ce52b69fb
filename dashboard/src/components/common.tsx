import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
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

/** A confirmation dialog for destructive actions; the error of the action shows inside it. */
export function ConfirmModal({
  visible,
  header,
  children,
  confirmText,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  visible: boolean;
  header: string;
  children: React.ReactNode;
  confirmText: string;
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
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onCancel}>
              Cancel
            </Button>
            <Button variant="primary" loading={busy} onClick={onConfirm}>
              {confirmText}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        {children}
        <ErrorAlert error={error} />
      </SpaceBetween>
    </Modal>
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
