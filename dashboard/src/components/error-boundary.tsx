import { Component, type ErrorInfo, type ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';

/** A page that fails to render shows what happened instead of a blank screen. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The page failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // A page's code that could not be downloaded: the connection dropped, or a newer dashboard replaced it.
    const notDownloaded =
      /dynamically imported module|importing a module script failed|error loading dynamically/i.test(error.message);
    return (
      <div role="alert">
        <Alert
          type="error"
          header={notDownloaded ? 'This page could not be downloaded' : 'This page failed to display'}
          action={<Button onClick={() => window.location.reload()}>Reload</Button>}
        >
          {notDownloaded
            ? 'The connection may have dropped, or the dashboard was updated. Reload to try again.'
            : error.message}
        </Alert>
      </div>
    );
  }
}
