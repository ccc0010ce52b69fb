import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ApiError, AuthenticationError, type Me, type MessagingClient } from '@messaging-platform/sdk';

export type UserCaller = Extract<Me, { kind: 'user' }>;

export interface FlashInput {
  type: 'success' | 'error' | 'info' | 'warning';
  content: React.ReactNode;
  header?: React.ReactNode;
}

export interface AppContextValue {
  client: MessagingClient;
  me: UserCaller;
  isAdmin: boolean;
  /** The session ended (a 401 after the refresh failed): back to sign in, keeping where the user was. */
  sessionEnded: () => void;
  signOut: () => Promise<void>;
  flash: (message: FlashInput) => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the signed-in app');
  return value;
}

/** A 401 that survived the SDK's refresh: the session is over. */
export const isSessionOver = (error: unknown): boolean =>
  error instanceof AuthenticationError ||
  (error instanceof Error && error.message.includes('logged out') && !(error instanceof ApiError));

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

/**
 * Loads data with the session's client; a lost session sends the user to sign in. `pollMs` reloads it
 * in the background while the tab is visible (errors of background reloads keep the last data).
 */
export function useResource<T>(
  load: (client: MessagingClient) => Promise<T>,
  deps: unknown[],
  options: { pollMs?: number } = {},
): Resource<T> {
  const { client, sessionEnded } = useApp();
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  const inflight = useRef(false);
  const generation = useRef(0);

  const run = useCallback(
    async (background: boolean) => {
      if (background && inflight.current) return;
      const mine = ++generation.current;
      inflight.current = true;
      if (!background) setState((s) => ({ data: s.data, loading: true }));
      try {
        const data = await loadRef.current(client);
        if (mine === generation.current) setState({ data, loading: false });
      } catch (error) {
        if (isSessionOver(error)) return sessionEnded();
        if (mine === generation.current)
          setState((s) => (background && s.data !== undefined ? { ...s, loading: false } : { error, loading: false }));
      } finally {
        if (mine === generation.current) inflight.current = false;
      }
    },
    [client, sessionEnded, ...deps],
  );

  useEffect(() => {
    setState({ loading: true });
    void run(false);
  }, [run]);

  useEffect(() => {
    if (!options.pollMs) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void run(true);
    }, options.pollMs);
    return () => window.clearInterval(timer);
  }, [run, options.pollMs]);

  return { data: state.data, error: state.error, loading: state.loading, reload: () => run(false) };
}

/** Runs an action; a lost session sends the user to sign in, other errors are returned for the form to show. */
export function useAction() {
  const { sessionEnded } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(
    async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      setError(undefined);
      try {
        return await action();
      } catch (e) {
        if (isSessionOver(e)) sessionEnded();
        else setError(e);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [sessionEnded],
  );
  return { busy, error, run, clearError: () => setError(undefined) };
}
