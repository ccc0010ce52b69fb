import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import {
  ApiError,
  AuthenticationError,
  type Me,
  type MessagingClient,
  type Page,
  type User,
} from '@messaging-platform/sdk';
import { describeError } from './components/errors';
import { useRealtime, type RealtimeMessage } from './realtime';

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
  /** What was last loaded; kept when a later load fails, so a failure never looks like an empty list. */
  data: T | undefined;
  /** The error of the last load the user asked for (first load, reload, Retry). */
  error: unknown;
  loading: boolean;
  /** When `data` was loaded. */
  loadedAt: Date | undefined;
  /** A background refresh failed: `data` is what was loaded at `loadedAt`. */
  stale: boolean;
  reload: () => Promise<void>;
}

/** The longest wait between background refreshes that keep finding nothing new. */
export const MAX_IDLE_POLL_MS = 60_000;

interface ResourceState<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  loadedAt?: Date;
  stale?: boolean;
}

/** How long a burst of realtime events is gathered into one background refresh. */
const REALTIME_REFRESH_MS = 150;

/**
 * Loads data with the session's client; a lost session sends the user to sign in. `pollMs` refreshes it
 * in the background while the tab is visible: each refresh that finds nothing new doubles the wait (up to
 * a minute), and a change, a click or a key press brings it back to `pollMs`, so a dashboard left open
 * spends little of the tenant's hourly request limit. With `refreshOn`, realtime events it accepts
 * refresh it instead (src/realtime.ts): while the realtime connection is live there is no polling at all,
 * and each time it becomes live again (after a drop) the data is refreshed once.
 */
export function useResource<T>(
  load: (client: MessagingClient) => Promise<T>,
  deps: unknown[],
  options: { pollMs?: number; refreshOn?: (message: RealtimeMessage) => boolean } = {},
): Resource<T> {
  const { client, sessionEnded } = useApp();
  const refreshOn = useRef(options.refreshOn);
  refreshOn.current = options.refreshOn;
  const pending = useRef<number | undefined>(undefined);
  const realtime = useRealtime(
    client,
    (event) => {
      if (!refreshOn.current?.(event) || pending.current !== undefined) return;
      pending.current = window.setTimeout(() => {
        pending.current = undefined;
        void runRef.current?.(true);
      }, REALTIME_REFRESH_MS);
    },
    options.refreshOn !== undefined,
  );
  const runRef = useRef<((background: boolean) => Promise<boolean | undefined>) | undefined>(undefined);
  const [state, setState] = useState<ResourceState<T>>({ loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  const inflight = useRef(false);
  const generation = useRef(0);
  const lastJson = useRef<string | undefined>(undefined);

  /** Loads once; true if the data changed, undefined if a background load was skipped (one is running). */
  const run = useCallback(
    async (background: boolean): Promise<boolean | undefined> => {
      if (background && inflight.current) return undefined;
      const mine = ++generation.current;
      inflight.current = true;
      if (!background) setState((s) => ({ ...s, loading: true }));
      try {
        const data = await loadRef.current(client);
        if (mine !== generation.current) return false;
        const json = JSON.stringify(data);
        const changed = json !== lastJson.current;
        lastJson.current = json;
        setState({ data, loading: false, loadedAt: new Date(), stale: false });
        return changed;
      } catch (error) {
        if (isSessionOver(error)) {
          sessionEnded();
          return false;
        }
        if (mine === generation.current)
          setState((s) =>
            background && s.data !== undefined
              ? { ...s, loading: false, stale: true }
              : { data: s.data, loadedAt: s.loadedAt, error, loading: false, stale: false },
          );
        return false;
      } finally {
        if (mine === generation.current) inflight.current = false;
      }
    },
    [client, sessionEnded, ...deps],
  );

  runRef.current = run;

  useEffect(() => {
    lastJson.current = undefined;
    setState({ loading: true });
    void run(false);
  }, [run]);

  // Live again after a drop or a resync: whatever changed meanwhile is loaded once.
  const wasLive = useRef(false);
  useEffect(() => {
    const live = realtime === 'live';
    if (live && !wasLive.current && lastJson.current !== undefined) void run(true);
    wasLive.current = live;
  }, [realtime, run]);
  useEffect(() => () => window.clearTimeout(pending.current), []);

  // Realtime keeps it fresh while live: polling is only the fallback. Coming back to the tab still
  // refreshes at once (a request only when someone looks, never while the tab sits idle).
  const realtimeLive = options.refreshOn !== undefined && realtime === 'live';
  useEffect(() => {
    if (!realtimeLive) return;
    const visible = () => {
      if (document.visibilityState === 'visible') void run(true);
    };
    document.addEventListener('visibilitychange', visible);
    return () => document.removeEventListener('visibilitychange', visible);
  }, [realtimeLive, run]);
  const pollMs = realtimeLive ? undefined : options.pollMs;
  useEffect(() => {
    if (!pollMs) return;
    let wait = pollMs;
    let timer: number | undefined;
    let stopped = false;
    // Input while a refresh was running counts when it ends.
    let activeSinceTick = false;
    const schedule = () => {
      timer = window.setTimeout(() => {
        timer = undefined;
        void tick();
      }, wait);
    };
    const tick = async () => {
      if (document.visibilityState === 'visible') {
        activeSinceTick = false;
        const changed = await run(true);
        if (changed || activeSinceTick) wait = pollMs;
        else if (changed === false) wait = Math.min(wait * 2, MAX_IDLE_POLL_MS);
      }
      if (!stopped) schedule();
    };
    // Someone is using the page: refresh at the full rate again (a waiting timer is restarted).
    const active = () => {
      activeSinceTick = true;
      if (wait === pollMs) return;
      wait = pollMs;
      if (timer !== undefined) {
        window.clearTimeout(timer);
        schedule();
      }
    };
    // Back on the tab: refresh now rather than at the end of a long wait.
    const visible = () => {
      if (document.visibilityState !== 'visible' || timer === undefined) return;
      wait = pollMs;
      window.clearTimeout(timer);
      timer = undefined;
      void tick();
    };
    schedule();
    window.addEventListener('pointerdown', active);
    window.addEventListener('keydown', active);
    document.addEventListener('visibilitychange', visible);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      window.removeEventListener('pointerdown', active);
      window.removeEventListener('keydown', active);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [run, pollMs]);

  return {
    data: state.data,
    error: state.error,
    loading: state.loading,
    loadedAt: state.loadedAt,
    stale: state.stale ?? false,
    reload: async () => {
      await run(false);
    },
  };
}

/** `value` once it has stayed the same for `delayMs` (what was typed, once typing pauses). */
export function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
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

/** Runs an action that has no form or dialog to show its error in: the error is flashed, headed by `failure`. */
export function useFlashedAction() {
  const { flash, sessionEnded } = useApp();
  return useCallback(
    async <T,>(failure: string, action: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await action();
      } catch (error) {
        if (isSessionOver(error)) sessionEnded();
        else {
          const { header, detail } = describeError(error);
          flash({
            type: 'error',
            header: `${failure}: ${header.charAt(0).toLowerCase()}${header.slice(1)}`,
            content: detail,
          });
        }
        return undefined;
      }
    },
    [flash, sessionEnded],
  );
}

/** What useOlderPages gives a list. */
export type OlderPages<T extends { id: string } = { id: string }> = ReturnType<typeof useOlderPages<T>>;

/**
 * Pages older than a refreshed first page, loaded on request and kept as loaded. `start` is where the
 * older pages begin: a cursor, null for the start of the list, undefined when there are none. `merged`
 * shows the first page's copy of an item over an older one (an item with new activity has moved up).
 */
export function useOlderPages<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<ListPage<T>>,
  start: string | null | undefined,
  deps: unknown[],
) {
  // `next` is absent until a first older page is loaded: until then the older pages begin at `start`.
  const [loaded, setLoaded] = useState<{ items: T[]; next?: string | null }>({ items: [] });
  const action = useAction();
  // Changed filters start over; a page still on its way for the old ones is dropped when it arrives.
  const generation = useRef(0);
  useEffect(() => {
    generation.current += 1;
    setLoaded({ items: [] });
  }, deps);
  const next = 'next' in loaded ? loaded.next : start;
  const load = async () => {
    if (next === undefined) return;
    const asked = generation.current;
    const page = await action.run(() => fetchPage(next));
    if (page && asked === generation.current)
      setLoaded((l) => ({
        items: [...l.items, ...page.data],
        next: page.hasMore ? page.nextCursor : undefined,
      }));
  };
  const merged = (first: T[]): T[] => [...first, ...loaded.items.filter((o) => !first.some((f) => f.id === o.id))];
  return {
    hasMore: next !== undefined,
    merged,
    load,
    busy: action.busy,
    error: action.error,
    clearError: action.clearError,
  };
}

/** A page of a list as the lists' hooks need it. */
type ListPage<T> = Pick<Page<T>, 'data' | 'hasMore' | 'nextCursor'>;

/**
 * A settings list that the team edits: its first page (`cursor` null) and older pages on request, one
 * selected row, the row being edited ('new' for a new one) and the delete dialog. `done` says what
 * happened, clears the selection and reads the list again from the start.
 */
export function useEditableList<T extends { id: string }>(
  fetchPage: (client: MessagingClient, cursor: string | null) => Promise<ListPage<T>>,
  /** When to read the first page again by itself (as `useResource`). */
  refresh: Parameters<typeof useResource>[2] = {},
) {
  const { client, flash } = useApp();
  // After a change the list is read again from the start (`changes` also drops the pages loaded past it).
  const [changes, setChanges] = useState(0);
  const list = useResource((c) => fetchPage(c, null), [changes], refresh);
  const more = useOlderPages<T>(
    (cursor) => fetchPage(client, cursor),
    list.data?.hasMore ? list.data.nextCursor : undefined,
    [changes],
  );
  const [selected, setSelected] = useState<T[]>([]);
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const remove = useAction();
  const done = (message: string) => {
    flash({ type: 'success', content: message });
    setSelected([]);
    setChanges((n) => n + 1);
  };
  return {
    list,
    more,
    shown: list.data && more.merged(list.data.data),
    selected,
    setSelected,
    current: selected[0],
    editing,
    setEditing,
    deleting,
    setDeleting,
    remove,
    done,
  };
}

/** The tenant's users (at most 1,000), and a name for a user id: who a conversation is assigned to. */
export function useTeam() {
  const { me } = useApp();
  const users = useResource((c) => c.users.list({ limit: 100 }).toArray({ max: 1000 }), []);
  // Until the team is loaded (or when it could not be), a user is named by nothing better than "you" or
  // "a teammate": "a former user" is said only of an id the loaded team does not have.
  const nameOf = (id: string | null | undefined): string => {
    if (!id) return '';
    const user = users.data?.find((u: User) => u.id === id);
    if (id === me.user_id) return user ? `${user.name ?? user.email} (you)` : 'you';
    if (user) return user.name ?? user.email;
    return users.data ? 'a former user' : 'a teammate';
  };
  return { users, nameOf };
}
