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
    if (!this.state.error) return this.props.children;
    return (
      <Alert
        type="error"
        header="This page failed to display"
        action={<Button onClick={() => window.location.reload()}>Reload</Button>}
      >
        {this.state.error.message}
      </Alert>
    );
  }
}
