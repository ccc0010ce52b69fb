/**
 * Realtime events for the dashboard (docs/realtime.md): one WebSocket per signed-in tab, shared by every
 * page that listens. The SDK's subscription does the work (ticket → socket → events, reconnection with a
 * growing pause, and a resume through `GET /events?after=…` so nothing is missed or shown twice); this
 * module shares it between pages and tells them whether it is live, so they poll only when it is not.
 * When the browser comes back online or the tab is shown again, a waiting reconnection goes at once
 * rather than at the end of its pause (up to 30 s, and longer in a background tab, whose timers the
 * browser slows down).
 */
import { useEffect, useRef, useState } from 'react';
import type {
  Event,
  MessagingClient,
  RealtimeControl,
  RealtimeStatus,
  RealtimeSubscription,
} from '@messaging-platform/sdk';

/** What the socket brings a page: an event, or a signal such as `realtime.note` (notes have no events). */
export type RealtimeMessage = Event | RealtimeControl;
export type RealtimeListener = (message: RealtimeMessage) => void;

/** A page change closes no socket at once: the next page usually listens again within this. */
const LINGER_MS = 30_000;

/** The tab's realtime connection for one client (one session): opened by the first listener. */
export class RealtimeHub {
  private subscription: RealtimeSubscription | undefined;
  private readonly listeners = new Set<RealtimeListener>();
  private readonly statusListeners = new Set<(status: RealtimeStatus) => void>();
  private lastEventId: string | undefined;
  private lingering: ReturnType<typeof setTimeout> | undefined;
  private ended = false;
  status: RealtimeStatus = 'closed';

  constructor(private readonly client: MessagingClient) {}

  /** The network is back, or the user looks at the tab again: no reason to sit out the pause. */
  private readonly reconnectNow = () => {
    if (document.visibilityState === 'visible') this.subscription?.reconnectNow();
  };

  /** Calls `listener` with every event the user may see; returns the unsubscribe function. */
  subscribe(listener: RealtimeListener): () => void {
    this.listeners.add(listener);
    this.open();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.closeSoon();
    };
  }

  /** Calls `listener` with each change of the connection's status; returns the unsubscribe function. */
  onStatus(listener: (status: RealtimeStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.lingering);
    this.lastEventId = this.subscription?.lastEventId ?? this.lastEventId;
    this.subscription?.close();
    this.subscription = undefined;
    window.removeEventListener('online', this.reconnectNow);
    document.removeEventListener('visibilitychange', this.reconnectNow);
    this.setStatus('closed');
  }

  /** The session is over (signed out, or ended): the socket closes now, and nothing opens it again. */
  end(): void {
    this.ended = true;
    this.close();
  }

  private open() {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    if (this.subscription || this.ended) return;
    this.subscription = this.client.realtime.subscribe({
      after: this.lastEventId,
      onEvent: (event) => this.emit(event),
      onControl: (message) => this.emit(message),
      onStatus: (status) => this.setStatus(status),
      // Too much was missed to replay: every listener reloads what it shows.
      onResync: () => this.setStatus('resuming'),
    });
    window.addEventListener('online', this.reconnectNow);
    document.addEventListener('visibilitychange', this.reconnectNow);
  }

  private emit(message: RealtimeMessage) {
    for (const listener of [...this.listeners]) listener(message);
  }

  private closeSoon() {
    clearTimeout(this.lingering);
    this.lingering = setTimeout(() => this.close(), LINGER_MS);
  }

  private setStatus(status: RealtimeStatus) {
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

const hubs = new WeakMap<MessagingClient, RealtimeHub>();

/** The tab's hub for this client (a new session gets a new one). */
export function realtimeFor(client: MessagingClient): RealtimeHub {
  let hub = hubs.get(client);
  if (!hub) hubs.set(client, (hub = new RealtimeHub(client)));
  return hub;
}

/**
 * Listens to realtime events while the component is mounted and returns the connection's status. A
 * status of `live` means every event reaches `onEvent`: a page can stop polling then.
 */
export function useRealtime(client: MessagingClient, onEvent: RealtimeListener, enabled = true): RealtimeStatus {
  const hub = realtimeFor(client);
  const [status, setStatus] = useState<RealtimeStatus>(hub.status);
  const listener = useRef(onEvent);
  listener.current = onEvent;
  useEffect(() => {
    if (!enabled) return;
    const offStatus = hub.onStatus(setStatus);
    const off = hub.subscribe((event) => listener.current(event));
    setStatus(hub.status);
    return () => {
      off();
      offStatus();
    };
  }, [hub, enabled]);
  return status;
}

const isEvent = (message: RealtimeMessage): message is Event => 'id' in message && 'data' in message;

/** Events that change what an inbox list shows: any conversation or message event. */
export const changesInbox = (message: RealtimeMessage): boolean =>
  isEvent(message) && message.type.startsWith('conversation.');

/** Events that change one conversation's page: its own conversation and message events. */
export const changesConversation =
  (conversationId: string) =>
  (message: RealtimeMessage): boolean => {
    if (!isEvent(message) || !message.type.startsWith('conversation.')) return false;
    const data = message.data as { conversation_id?: string; conversation?: { id?: string } };
    return (data.conversation_id ?? data.conversation?.id) === conversationId;
  };

/** The signal that one conversation's team notes changed (written, edited or deleted by anyone). */
export const changesNotes =
  (conversationId: string) =>
  (message: RealtimeMessage): boolean =>
    message.type === 'realtime.note' && message.conversation_id === conversationId;
