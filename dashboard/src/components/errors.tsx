import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ApiError, ConnectionError, PermissionError, RateLimitError } from '@messaging-platform/sdk';
import { formatWait } from '../format';

/** Headlines in words for the statuses a form meets (the API's titles are HTTP's status texts). */
const HEADLINES: Record<number, string> = {
  400: 'The request was not accepted',
  404: 'Not found',
  409: 'This clashes with what is already there',
  412: 'Someone else changed this meanwhile',
  413: 'Too large',
  422: 'Some values are not accepted',
};

/** A short headline and explanation for any error the SDK throws. */
export function describeError(error: unknown): { header: string; detail: string } {
  if (error instanceof PermissionError)
    return {
      header: 'Not allowed',
      detail:
        error.code === 'insufficient_role'
          ? 'Your role does not allow this. Ask an admin of your organization.'
          : error.detail,
    };
  if (error instanceof RateLimitError)
    return {
      header: 'Too many requests',
      detail:
        error.retryAfter !== undefined ? `${error.detail} Try again in ${formatWait(error.retryAfter)}.` : error.detail,
    };
  if (error instanceof ApiError)
    return {
      header: HEADLINES[error.status] ?? (error.status >= 500 ? 'The server had a problem' : (error.title ?? 'Failed')),
      detail: error.detail,
    };
  // The SDK's message names the method and URL: useful in a console, noise in a form.
  if (error instanceof ConnectionError)
    return {
      header: 'Cannot reach the API',
      detail: 'The dashboard got no answer from the API. Check your connection and try again.',
    };
  return { header: 'Something went wrong', detail: error instanceof Error ? error.message : String(error) };
}

/** The request id of an API error, with a copy button, so a user can report it. */
export function RequestId({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || !error.requestId) return null;
  return (
    <Box variant="small" data-testid="request-id">
      Request ID:{' '}
      <CopyToClipboard
        variant="inline"
        textToCopy={error.requestId}
        copyButtonAriaLabel="Copy request ID"
        copySuccessText="Request ID copied"
        copyErrorText="Request ID failed to copy"
      />
    </Box>
  );
}

export function ErrorAlert({
  error,
  header,
  onDismiss,
  action,
}: {
  error: unknown;
  header?: string;
  onDismiss?: () => void;
  action?: React.ReactNode;
}) {
  if (!error) return null;
  const described = describeError(error);
  const fields = error instanceof ApiError ? error.errors : [];
  return (
    <Alert
      type="error"
      header={header ?? described.header}
      dismissible={!!onDismiss}
      onDismiss={onDismiss}
      action={action}
    >
      <SpaceBetween size="xxs">
        <span>{described.detail}</span>
        {fields.length > 0 && (
          <ul>
            {fields.map((f) => (
              <li key={`${f.path}:${f.message}`}>
                <code>{f.path}</code>: {f.message}
              </li>
            ))}
          </ul>
        )}
        <RequestId error={error} />
      </SpaceBetween>
    </Alert>
  );
}
