/**
 * How the dashboard hears of new activity: the inbox refreshes what an event touches (one conversation, or
 * the list) instead of polling. Until the realtime connection is wired in, `liveEvents` is null and the
 * pages fall back to a slow background poll (`pollUnlessLive`).
 */
import { useEffect, useRef } from 'react';

/** An event envelope as `GET /events`, webhooks and the realtime connection carry it. */
export interface LiveEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** Subscribes a listener to the tenant's events; returns the unsubscribe. */
export type SubscribeToEvents = (listener: (event: LiveEvent) => void) => () => void;

// Integration point: `import { subscribe } from './realtime'` and set `liveEvents = subscribe`.
export const liveEvents: SubscribeToEvents | null = null;

/** A poll interval while no realtime connection exists; none once events are pushed. */
export const pollUnlessLive = (ms: number): number | undefined => (liveEvents ? undefined : ms);

/** The conversation an event is about, if any. */
export function conversationOf(event: LiveEvent): string | undefined {
  const { conversation, message, conversation_id } = event.data as {
    conversation?: { id?: string };
    message?: { conversation_id?: string };
    conversation_id?: string;
  };
  return conversation?.id ?? message?.conversation_id ?? conversation_id;
}

/** Calls `onEvent` for each pushed event while mounted (nothing when there is no realtime connection). */
export function useLiveEvents(onEvent: (event: LiveEvent) => void): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => liveEvents?.((event) => latest.current(event)), []);
}
