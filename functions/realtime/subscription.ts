/**
 * What a realtime connection receives: pure rules, no AWS imports. A connection sees an event when its
 * role may see the event's type and its subscription (types, one conversation) matches the event.
 */
import * as z from 'zod/mini';
import type { Role } from '../../catalog/routes';
import { REALTIME_LIMITS } from '../../catalog/realtime';
import { EVENT_FILTERS, isEventFilter, matchesPattern, type EventEnvelope } from '../events/catalog';
import { idOf } from '../platform/validation';

export interface Subscription {
  /** Event types and patterns (`conversation.*`); every type when empty. */
  types: string[];
  /** Only the events of this conversation. */
  conversationId?: string;
}

/** Who opened the connection, as the ticket recorded it. */
export interface ConnectionOwner {
  tenantId: string;
  /** A user id (`usr_…`) or an API key id (`key_…`). */
  principalId: string;
  role: Role;
  /** The login session behind a user's ticket (none for an API key): ending it closes the connection. */
  sessionId?: string;
}

export interface Connection extends ConnectionOwner {
  connectionId: string;
  subscription: Subscription;
  connectedAt: string;
}

/**
 * A connection registered so recently that its socket may still be opening: a push or greeting that finds it
 * gone must not forget it (it would then be open and live, and never pushed to again).
 */
export const mayStillBeOpening = (connection: Pick<Connection, 'connectedAt'>, now: Date): boolean =>
  now.getTime() - Date.parse(connection.connectedAt) <= REALTIME_LIMITS.openingSeconds * 1000;

const eventFilter = z
  .string()
  .check(
    z.refine(isEventFilter, 'must be an event type or one of *, conversation.*, booking.*, payment.*'),
    z.meta({ enum: EVENT_FILTERS }),
  );

/** The subscription fields, as a ticket's body and a client's `subscribe` message carry them. */
export const subscriptionFields = {
  types: z.optional(z.array(eventFilter).check(z.maxLength(REALTIME_LIMITS.maxTypes))),
  conversation_id: z.optional(idOf('conv', 'conversation')),
};

export const subscriptionOf = (fields: { types?: string[]; conversation_id?: string }): Subscription => ({
  types: [...new Set(fields.types ?? [])],
  ...(fields.conversation_id ? { conversationId: fields.conversation_id } : {}),
});

/** A client's message on the socket: change the subscription, or ask for a pong. */
export const ClientMessage = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('subscribe'), ...subscriptionFields }),
  z.strictObject({ action: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/**
 * Types only admins see: a channel that must be authorised again (connecting channels is an admin's task)
 * and webhook tests. Agents work conversations and bookings.
 */
const ADMIN_ONLY_PREFIXES = ['channel.', 'webhook.'];

export const roleSees = (role: Role, type: string): boolean =>
  role === 'admin' || !ADMIN_ONLY_PREFIXES.some((prefix) => type.startsWith(prefix));

/** The conversation an event is about, if any (a conversation's own events, its messages'). */
export function conversationOf(event: EventEnvelope): string | undefined {
  const data = event.data as { conversation_id?: unknown; conversation?: { id?: unknown } };
  if (typeof data.conversation_id === 'string') return data.conversation_id;
  if (typeof data.conversation?.id === 'string') return data.conversation.id;
  return undefined;
}

export function delivers(connection: ConnectionOwner & { subscription: Subscription }, event: EventEnvelope): boolean {
  if (event.tenant_id !== connection.tenantId || !roleSees(connection.role, event.type)) return false;
  const { types, conversationId } = connection.subscription;
  if (types.length > 0 && !types.some((pattern) => matchesPattern(event.type, pattern))) return false;
  return conversationId === undefined || conversationOf(event) === conversationId;
}

/**
 * The type a note change is matched as: team notes have no event (webhooks carry what happens with the
 * customer), so a `realtime.note` signal goes to the connections that take `*` or `conversation.*`.
 */
const NOTE_SIGNAL_TYPE = 'conversation.note';

/** Whether a connection takes the note signal of this conversation (every role sees notes). */
export function takesNoteSignal(connection: { subscription: Subscription }, conversationId: string): boolean {
  const { types, conversationId: only } = connection.subscription;
  if (types.length > 0 && !types.some((pattern) => matchesPattern(NOTE_SIGNAL_TYPE, pattern))) return false;
  return only === undefined || only === conversationId;
}

/** Control messages: no `id`, a type that starts with `realtime.`. */
export type ControlMessage =
  | { type: 'realtime.note'; conversation_id: string; note_id: string; change: 'created' | 'updated' | 'deleted' }
  | { type: 'realtime.ready'; connection_id: string }
  | { type: 'realtime.pong' }
  | { type: 'realtime.subscribed'; types: string[]; conversation_id: string | null }
  | { type: 'realtime.error'; code: string; detail: string };

export const subscribedMessage = (s: Subscription): ControlMessage => ({
  type: 'realtime.subscribed',
  types: s.types,
  conversation_id: s.conversationId ?? null,
});
