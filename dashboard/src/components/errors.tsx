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

/** Whether an API field path (`customer.phone`, `events[2]`) lies at or under one of `paths`. */
const under = (path: string, paths: readonly string[]) =>
  paths.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));

/** A field message as a sentence: the schema's ("must be …") get a capital and a full stop; whole sentences stay as they are. */
const sentence = (message: string) =>
  /[.!?]$/.test(message) ? message : `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;

/**
 * What the API said about the fields at `paths` (or a problem `codes` names, such as 409 `email_taken`),
 * to show under the form field itself; '' when nothing.
 */
export function fieldError(error: unknown, paths: readonly string[], codes: readonly string[] = []): string {
  if (!(error instanceof ApiError)) return '';
  if (codes.includes(error.code ?? '')) return error.detail;
  return error.errors
    .filter((f) => under(f.path, paths))
    .map((f) => sentence(f.message))
    .join(' ');
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

/**
 * An error above a form or list: headline, detail, the field errors no form field shows itself (those at
 * `atFields` show under their field, through fieldError), and the request id.
 */
export function ErrorAlert({
  error,
  header,
  onDismiss,
  action,
  atFields = [],
}: {
  error: unknown;
  header?: string;
  onDismiss?: () => void;
  action?: React.ReactNode;
  atFields?: readonly string[];
}) {
  if (!error) return null;
  const described = describeError(error);
  const fields = error instanceof ApiError ? error.errors.filter((f) => !under(f.path, atFields)) : [];
  // A problem about one field says it at the field already: the alert need not say it twice.
  const shownAtField =
    error instanceof ApiError && error.errors.some((f) => under(f.path, atFields) && f.message === described.detail);
  const detail = shownAtField ? 'See the field marked in the form.' : described.detail;
  return (
    <Alert
      type="error"
      header={header ?? described.header}
      dismissible={!!onDismiss}
      onDismiss={onDismiss}
      action={action}
    >
      <SpaceBetween size="xxs">
        <span>{detail}</span>
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
