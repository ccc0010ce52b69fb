import { createHash, randomBytes } from 'node:crypto';
import { REALTIME_LIMITS } from '../../catalog/realtime';
import { actorId, type TenantPrincipal } from '../auth/principal';
import { requireEnv } from '../platform/config';
import { isUuid } from '../platform/ids';
import { closeConnection, sendTo } from './sockets';
import {
  deleteConnection,
  getConnection,
  listConnections,
  putConnection,
  putTicket,
  redeemTicket,
  setSubscription,
  tenantOfConnection,
} from './store';
import {
  ClientMessage,
  subscribedMessage,
  subscriptionOf,
  type ControlMessage,
  type Subscription,
} from './subscription';

export const TICKET_PREFIX = 'rtt_';
const TICKET_PATTERN = /^rtt_[A-Za-z0-9_-]{32}$/;
const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export interface IssuedTicket {
  ticket: string;
  url: string;
  expires_at: string;
}

/**
 * A ticket to open one realtime connection: 24 random bytes, stored only as its SHA-256, bound to the
 * caller's tenant, identity and role, redeemable once within REALTIME_LIMITS.ticketSeconds. The URL
 * carries it, so no credential travels in a WebSocket URL (or the logs that keep URLs).
 */
export async function issueTicket(
  caller: TenantPrincipal,
  subscription: Subscription,
  now: Date,
): Promise<IssuedTicket> {
  const ticket = `${TICKET_PREFIX}${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + REALTIME_LIMITS.ticketSeconds * 1000);
  await putTicket(
    hashOf(ticket),
    {
      tenantId: caller.tenant.id,
      principalId: actorId(caller),
      role: caller.role,
      ...(caller.kind === 'user' ? { sessionId: caller.sessionId } : {}),
      subscription,
    },
    expiresAt,
  );
  const url = new URL(requireEnv('REALTIME_URL'));
  url.searchParams.set('tenant_id', caller.tenant.id);
  url.searchParams.set('ticket', ticket);
  return { ticket, url: url.toString(), expires_at: expiresAt.toISOString() };
}

/** How `$connect` ends: accepted, or refused with an HTTP status the client sees on its handshake. */
export type ConnectResult =
  { accepted: true } | { accepted: false; status: 400 | 401 | 429; code: string; detail: string };

/**
 * Opens a connection with a ticket: the ticket must be this tenant's, unexpired and unused (it is used up
 * here), and the tenant and the ticket's owner must be under their connection limits.
 */
export async function connect(
  query: Record<string, string | undefined>,
  connectionId: string,
  now: Date,
): Promise<ConnectResult> {
  const tenantId = query.tenant_id ?? '';
  const ticket = query.ticket ?? '';
  if (!isUuid(tenantId) || !TICKET_PATTERN.test(ticket))
    return {
      accepted: false,
      status: 400,
      code: 'invalid_query',
      detail: 'Connect with the URL a ticket came with: `tenant_id` and `ticket` are required.',
    };
  const owner = await redeemTicket(hashOf(ticket), tenantId, connectionId, now);
  if (!owner)
    return {
      accepted: false,
      status: 401,
      code: 'invalid_ticket',
      detail: 'The ticket is unknown, used, expired or of another tenant: ask for a new one.',
    };
  const open = await listConnections(tenantId, now);
  if (open.length >= REALTIME_LIMITS.connectionsPerTenant)
    return {
      accepted: false,
      status: 429,
      code: 'too_many_connections',
      detail: `The tenant has ${REALTIME_LIMITS.connectionsPerTenant} realtime connections open, the most it may.`,
    };
  if (open.filter((c) => c.principalId === owner.principalId).length >= REALTIME_LIMITS.connectionsPerPrincipal)
    return {
      accepted: false,
      status: 429,
      code: 'too_many_connections',
      detail: `This user or key has ${REALTIME_LIMITS.connectionsPerPrincipal} realtime connections open, the most it may.`,
    };
  await putConnection({ ...owner, connectionId, connectedAt: now.toISOString() }, now);
  return { accepted: true };
}

export async function disconnect(connectionId: string): Promise<void> {
  const tenantId = await tenantOfConnection(connectionId);
  if (tenantId) await deleteConnection(tenantId, connectionId);
}

const errorMessage = (code: string, detail: string): ControlMessage => ({ type: 'realtime.error', code, detail });

/** Answers a client's message on its socket (API Gateway's `$default` route): subscribe or ping. */
export async function handleClientMessage(connectionId: string, body: string | undefined, now: Date): Promise<void> {
  const connection = await getConnection(connectionId, now);
  if (!connection) {
    // A socket whose item is gone (expired, or removed as gone) receives nothing: close it so it reconnects.
    await closeConnection(connectionId);
    return;
  }
  const reply = await answer(connection.tenantId, connectionId, body);
  await sendTo(connectionId, reply);
}

async function answer(tenantId: string, connectionId: string, body: string | undefined): Promise<ControlMessage> {
  const text = body ?? '';
  if (Buffer.byteLength(text) > REALTIME_LIMITS.maxClientMessageBytes)
    return errorMessage(
      'message_too_large',
      `A message may have at most ${REALTIME_LIMITS.maxClientMessageBytes} bytes.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return errorMessage('invalid_json', 'Messages are JSON objects.');
  }
  const parsed = ClientMessage.safeParse(json);
  if (!parsed.success)
    return errorMessage(
      'invalid_message',
      'Send {"action":"ping"} or {"action":"subscribe","types":[…],"conversation_id":"conv_…"}: ' +
        parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  const message = parsed.data;
  if (message.action === 'ping') return { type: 'realtime.pong' };
  const subscription = subscriptionOf(message);
  if (!(await setSubscription(tenantId, connectionId, subscription)))
    return errorMessage('connection_gone', 'The connection is closing: connect again.');
  return subscribedMessage(subscription);
}
