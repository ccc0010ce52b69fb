// Public: Graph API calls, for the templates.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_GRAPH_VERSION, decideGraphError, graphErrorReason, type GraphErrorDecision } from './graph-errors';
import { checkUrlForm, resolveTarget, UnsafeTarget } from '../webhooks/ssrf';

/** WhatsApp Cloud API: payload shapes, signature check and the Graph API client (media included). No AWS imports. */

/** Meta's X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function validSignature(rawBody: string, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A customer message as Meta sends it; only the parts we read are named. */
export interface WebhookMessage {
  id?: string;
  /** The customer's phone number (wa_id): withheld for some users who adopted a WhatsApp username. */
  from?: string;
  /** Meta's business-scoped user id (BSUID), present whether or not the phone number is. */
  from_user_id?: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  button?: { text?: string; payload?: string };
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
  };
  image?: WebhookMedia;
  video?: WebhookMedia;
  audio?: WebhookMedia & { voice?: boolean };
  sticker?: WebhookMedia & { animated?: boolean };
  document?: WebhookMedia & { filename?: string };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string }[] }[];
  reaction?: { message_id?: string; emoji?: string };
  context?: { id?: string };
}

/** A file in a customer message: Meta's media id to fetch it by, its type and hash, and a caption. */
export interface WebhookMedia {
  id?: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
}

/** The message kinds that carry a file (each under its own key, with an `id`). */
export const INBOUND_MEDIA_TYPES = ['image', 'document', 'audio', 'video', 'sticker'] as const;

export interface WebhookStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  recipient_user_id?: string;
  biz_opaque_callback_data?: string;
  errors?: { code?: number; title?: string; message?: string }[];
}

export interface WebhookValue {
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: { wa_id?: string; user_id?: string; profile?: { name?: string; username?: string } }[];
  messages?: WebhookMessage[];
  statuses?: WebhookStatus[];
  /** `message_template_status_update`: Meta's review of a template (no metadata: it is the account's). */
  event?: string;
  message_template_id?: number | string;
  message_template_name?: string;
  message_template_language?: string;
  reason?: string;
}

/** The webhook field of Meta's template review results. */
export const TEMPLATE_STATUS_FIELD = 'message_template_status_update';

export interface WebhookPayload {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WebhookValue }[] }[];
}

/** One business number's part of a payload, as queued for the inbound worker. */
export interface InboundChunk {
  phone_number_id: string;
  /** The WhatsApp Business Account it came through (entry.id). */
  waba_id: string | null;
  field: string;
  value: WebhookValue;
}

/** Comfortably under SQS's message size, with room for the envelope and escapes. */
const CHUNK_BYTES = 200 * 1024;

/** Halves a value's messages and statuses until each part is small enough to queue. */
function splitValue(value: WebhookValue, maxBytes: number): WebhookValue[] {
  if (Buffer.byteLength(JSON.stringify(value)) <= maxBytes) return [value];
  const messages = value.messages ?? [];
  const statuses = value.statuses ?? [];
  if (messages.length + statuses.length <= 1) return [value];
  const half = (list: unknown[]) => Math.ceil(list.length / 2);
  const [a, b]: WebhookValue[] =
    messages.length > 1 || (messages.length === 1 && statuses.length === 0)
      ? [
          { ...value, messages: messages.slice(0, half(messages)), statuses },
          { ...value, messages: messages.slice(half(messages)), statuses: [] },
        ]
      : [
          { ...value, messages, statuses: statuses.slice(0, half(statuses)) },
          { ...value, messages: [], statuses: statuses.slice(half(statuses)) },
        ];
  return [...splitValue(a!, maxBytes), ...splitValue(b!, maxBytes)];
}

/** Every business number's part of a payload, each small enough for one queue message. */
export function inboundChunks(payload: WebhookPayload, maxBytes = CHUNK_BYTES): InboundChunk[] {
  const entries = Array.isArray(payload.entry) ? payload.entry : [];
  return entries.flatMap((entry) =>
    (Array.isArray(entry?.changes) ? entry.changes : []).flatMap((change) => {
      const value = change?.value;
      const waba_id = typeof entry.id === 'string' ? entry.id : null;
      // A template's review concerns the account, not a number: routed by the template's id.
      if (value && change.field === TEMPLATE_STATUS_FIELD)
        return [{ phone_number_id: '', waba_id, field: TEMPLATE_STATUS_FIELD, value }];
      const phoneNumberId = value?.metadata?.phone_number_id;
      if (!value || typeof phoneNumberId !== 'string') return [];
      return splitValue(value, maxBytes).map((part) => ({
        phone_number_id: phoneNumberId,
        waba_id,
        field: typeof change.field === 'string' ? change.field : 'messages',
        value: part,
      }));
    }),
  );
}

/** Kinds that are not a customer writing: they neither open a conversation nor move the service window. */
export const NOT_CUSTOMER_MESSAGES = new Set(['reaction', 'system', 'unsupported', 'ephemeral', 'request_welcome']);

/**
 * What an inbound message says, as text: the body, a tapped button's or list row's title, a caption, a
 * location or shared contacts. Media itself is kept by its placeholder and caption.
 */
export function inboundText(m: WebhookMessage): string {
  switch (m.type) {
    case 'text':
      return m.text?.body ?? '';
    case 'button':
      return m.button?.text ?? m.button?.payload ?? '[button]';
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return reply?.title ?? '[interactive reply]';
    }
    case 'audio':
    case 'sticker':
      return `[${m.type}]`;
    case 'image':
    case 'video':
    case 'document': {
      const media = m[m.type];
      const name = m.type === 'document' && m.document?.filename ? ` ${m.document.filename}` : '';
      return media?.caption ? `[${m.type}${name}] ${media.caption}` : `[${m.type}${name}]`;
    }
    case 'location': {
      const l = m.location ?? {};
      const place = [l.name, l.address].filter(Boolean).join(', ');
      return `[location] ${place ? `${place} ` : ''}(${l.latitude ?? '?'}, ${l.longitude ?? '?'})`;
    }
    case 'contacts':
      return `[contacts] ${(m.contacts ?? [])
        .map((c) => [c.name?.formatted_name, ...(c.phones ?? []).map((p) => p.phone)].filter(Boolean).join(' '))
        .join('; ')}`;
    default:
      return `[${m.type ?? 'unknown'} message]`;
  }
}

export const receiptTime = (timestamp: string | undefined, fallback: Date): Date =>
  timestamp && /^\d+$/.test(timestamp) ? new Date(Number(timestamp) * 1000) : fallback;

/** A failed Graph API call, with what it means for a send (decided by Meta's `error.code`). */
export class GraphError extends Error {
  readonly decision: GraphErrorDecision | { kind: 'unknown' };
  constructor(
    readonly status: number,
    readonly metaCode: number | undefined,
    message: string,
    /** The request may have reached Meta (it timed out after being sent): its outcome is unknown. */
    outcomeUnknown = false,
    readonly retryAfterMs?: number,
    /** Meta's `error.error_subcode`, which narrows some codes (100: 2388024 is a name already taken). */
    readonly metaSubcode?: number,
  ) {
    super(graphErrorReason(metaCode, message));
    this.name = 'GraphError';
    this.decision = outcomeUnknown ? { kind: 'unknown' } : decideGraphError(status, metaCode);
  }
  get code(): string {
    if (this.decision.kind === 'unknown') return 'outcome_unknown';
    return this.metaCode !== undefined
      ? `graph_${this.metaCode}`
      : this.status
        ? `graph_http_${this.status}`
        : 'network_error';
  }
  get retryable(): boolean {
    return this.decision.kind === 'retry';
  }
  /** The least time to wait before trying again: Meta's documented minimum, else Retry-After. */
  get minWaitMs(): number | undefined {
    return (this.decision.kind === 'retry' ? this.decision.minWaitMs : undefined) ?? this.retryAfterMs;
  }
}

/** The configured Graph API version (WHATSAPP_GRAPH_VERSION), current by default. */
export const graphVersion = () => process.env.WHATSAPP_GRAPH_VERSION || DEFAULT_GRAPH_VERSION;

/**
 * The Graph API base URL with its version. WHATSAPP_GRAPH_URL moves the host (tests run a local fake
 * Graph server); a version at its end is replaced by the configured one.
 */
export const graphBaseUrl = () =>
  `${(process.env.WHATSAPP_GRAPH_URL ?? 'https://graph.facebook.com').replace(/\/+$/, '').replace(/\/v\d+\.\d+$/, '')}/${graphVersion()}`;

/** Meta's appsecret_proof: HMAC-SHA256 of the access token, keyed with the app secret, in hex. */
export const appSecretProof = (accessToken: string, appSecret: string) =>
  createHmac('sha256', appSecret).update(accessToken, 'utf8').digest('hex');

const GRAPH_TIMEOUT_MS = 5_000;

export interface GraphCredentials {
  accessToken: string;
  /** Signs each call with appsecret_proof when given (the platform app's secret, or the tenant's own app's). */
  appSecret?: string;
}

/** Connection failures that happen before a request is written: nothing reached Meta, so a retry is safe. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET_BEFORE_SEND', 'EHOSTUNREACH']);

/** One Graph API call: JSON in and out; a failure becomes a GraphError decided by Meta's error code. */
export async function graphCall<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  credentials: GraphCredentials | undefined,
  options: { body?: unknown; query?: Record<string, string> } = {},
): Promise<T> {
  const url = new URL(`${graphBaseUrl()}/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  if (credentials?.appSecret)
    url.searchParams.set('appsecret_proof', appSecretProof(credentials.accessToken, credentials.appSecret));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        ...(credentials ? { Authorization: `Bearer ${credentials.accessToken}` } : {}),
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? '';
    // A POST that timed out may have been processed by Meta: never call that a safe retry.
    const unknown = method === 'POST' && !NOT_SENT.has(cause);
    throw new GraphError(0, undefined, (error as Error).message, unknown);
  }
  const json = (await res.json().catch(() => ({}))) as T & {
    error?: { code?: number; error_subcode?: number; message?: string };
  };
  if (res.ok && !json.error) return json;
  const retryAfter = Number(res.headers.get('retry-after'));
  throw new GraphError(
    res.status,
    json.error?.code,
    json.error?.message ?? `Graph API answered ${res.status}`,
    false,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    typeof json.error?.error_subcode === 'number' ? json.error.error_subcode : undefined,
  );
}

/** Who a message goes to: the phone number when known, else Meta's business-scoped user id. */
export interface WhatsAppRecipient {
  phone?: string | null;
  userId?: string | null;
}

/**
 * POST /{phone_number_id}/messages with a message of any kind (its `type` and that type's object, as
 * Meta documents them). Returns the wamid. `reference` travels as Meta's biz_opaque_callback_data and
 * comes back on every status webhook of the message, so a send whose answer was lost can still be matched
 * to its message.
 */
export async function sendWhatsAppMessage(
  phoneNumberId: string,
  credentials: GraphCredentials,
  recipient: WhatsAppRecipient,
  message: Record<string, unknown>,
  reference?: string,
): Promise<string> {
  const json = await graphCall<{ messages?: { id?: string }[] }>(
    'POST',
    `${encodeURIComponent(phoneNumberId)}/messages`,
    credentials,
    {
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        ...(recipient.phone ? { to: recipient.phone.replace(/^\+/, '') } : { recipient: recipient.userId }),
        ...message,
        ...(reference ? { biz_opaque_callback_data: reference } : {}),
      },
    },
  );
  const wamid = json.messages?.[0]?.id;
  if (!wamid) throw new GraphError(200, undefined, 'The Graph API accepted the message but gave no id', true);
  return wamid;
}

/** A text message (POST /{phone_number_id}/messages, type `text`). */
export const sendWhatsAppText = (
  phoneNumberId: string,
  credentials: GraphCredentials,
  recipient: WhatsAppRecipient,
  body: string,
  reference?: string,
) =>
  sendWhatsAppMessage(
    phoneNumberId,
    credentials,
    recipient,
    { type: 'text', text: { preview_url: false, body } },
    reference,
  );

/**
 * Proves the caller controls the number: Graph answers GET /{phone_number_id} only with a token of the
 * business that owns it. Stops one tenant from claiming another's number.
 */
export async function verifyPhoneNumberAccess(
  phoneNumberId: string,
  credentials: GraphCredentials,
): Promise<{ display_phone_number?: string } | undefined> {
  try {
    const json = await graphCall<{ id?: string; display_phone_number?: string }>(
      'GET',
      encodeURIComponent(phoneNumberId),
      credentials,
      { query: { fields: 'id,display_phone_number' } },
    );
    return json.id === phoneNumberId ? json : undefined;
  } catch (error) {
    if (error instanceof GraphError) return undefined;
    throw error;
  }
}

/** The platform's Meta app (a Tech Provider): every tenant's number is served by it. */
export interface PlatformApp {
  id: string;
  secret: string;
}

export interface TokenInfo {
  is_valid?: boolean;
  type?: string;
  expires_at?: number;
  scopes?: string[];
}

/** GET /debug_token: what Meta knows of a token, asked with the app's own access token. */
export async function inspectToken(token: string, app: PlatformApp): Promise<TokenInfo> {
  const json = await graphCall<{ data?: TokenInfo }>('GET', 'debug_token', undefined, {
    query: { input_token: token, access_token: `${app.id}|${app.secret}` },
  });
  return json.data ?? {};
}

/** Scopes a business integration token needs to send and to manage the account's subscription. */
export const REQUIRED_SCOPES = ['whatsapp_business_messaging', 'whatsapp_business_management'];
/** A token that lapses sooner than this is a short-lived user token: messages would stop within days. */
const SHORT_LIVED_MS = 7 * 86_400_000;

/** Why a token cannot serve a channel (undefined when it can). Pure. */
export function tokenProblem(info: TokenInfo, now: Date): string | undefined {
  if (!info.is_valid) return 'Meta says this access token is not valid.';
  if (info.expires_at && info.expires_at * 1000 - now.getTime() < SHORT_LIVED_MS)
    return 'This access token expires within days: use a long-lived business integration or system user token.';
  const missing = REQUIRED_SCOPES.filter((s) => !(info.scopes ?? []).includes(s));
  if (missing.length) return `This access token lacks the ${missing.join(' and ')} permission.`;
  return undefined;
}

/** Embedded Signup: the OAuth code the tenant's browser got, exchanged for a business integration token. */
export async function exchangeSignupCode(code: string, app: PlatformApp): Promise<string> {
  const json = await graphCall<{ access_token?: string }>('GET', 'oauth/access_token', undefined, {
    query: { client_id: app.id, client_secret: app.secret, code },
  });
  if (!json.access_token) throw new GraphError(200, undefined, 'Meta returned no access token for this code');
  return json.access_token;
}

/** POST /{waba_id}/subscribed_apps: the platform app receives this account's webhooks from now on. */
export async function subscribeAppToAccount(wabaId: string, credentials: GraphCredentials): Promise<void> {
  const json = await graphCall<{ success?: boolean }>(
    'POST',
    `${encodeURIComponent(wabaId)}/subscribed_apps`,
    credentials,
  );
  if (!json.success) throw new GraphError(200, undefined, 'Meta did not subscribe the app to the account');
}

/** A message template as the Graph API shows it (WhatsApp Business Management API). */
export interface GraphTemplate {
  id?: string;
  name?: string;
  language?: string;
  category?: string;
  status?: string;
  rejected_reason?: string;
  components?: Record<string, unknown>[];
}

/** POST /{waba_id}/message_templates: submits a template for Meta's review. Returns its id and status. */
export async function createMessageTemplate(
  wabaId: string,
  credentials: GraphCredentials,
  template: { name: string; language: string; category: string; components: Record<string, unknown>[] },
): Promise<{ id: string; status: string }> {
  const json = await graphCall<{ id?: string; status?: string }>(
    'POST',
    `${encodeURIComponent(wabaId)}/message_templates`,
    credentials,
    { body: template },
  );
  if (!json.id) throw new GraphError(200, undefined, 'The Graph API accepted the template but gave no id');
  return { id: json.id, status: json.status ?? 'PENDING' };
}

/** GET /{waba_id}/message_templates, every page (a WABA holds at most a few hundred). */
export async function listMessageTemplates(wabaId: string, credentials: GraphCredentials): Promise<GraphTemplate[]> {
  const all: GraphTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const json = await graphCall<{ data?: GraphTemplate[]; paging?: { cursors?: { after?: string }; next?: string } }>(
      'GET',
      `${encodeURIComponent(wabaId)}/message_templates`,
      credentials,
      {
        query: {
          fields: 'id,name,language,category,status,rejected_reason,components',
          limit: '100',
          ...(after ? { after } : {}),
        },
      },
    );
    all.push(...(json.data ?? []));
    after = json.paging?.next ? json.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return all;
}

/** DELETE /{waba_id}/message_templates?name=…&hsm_id=…: deletes one language of a template (by its id). */
export async function deleteMessageTemplate(
  wabaId: string,
  credentials: GraphCredentials,
  name: string,
  templateId: string,
): Promise<void> {
  await graphCall('DELETE', `${encodeURIComponent(wabaId)}/message_templates`, credentials, {
    query: { name, hsm_id: templateId },
  });
}

/** What GET /{media_id} answers (WhatsApp Cloud API, "Retrieve media URL"): the URL works for 5 minutes. */
export interface GraphMediaInfo {
  url?: string;
  mime_type?: string;
  sha256?: string;
  file_size?: number | string;
  id?: string;
}

/**
 * A customer's file: GET /{media_id} for its short-lived URL, then GET that URL with the same token
 * (Meta's "Download media"). The URL must be https on a public host, as Meta's are (a local fake Graph
 * server's own origin is trusted when WHATSAPP_GRAPH_URL points at it). At most `maxBytes` are read.
 */
export async function downloadWhatsAppMedia(
  mediaId: string,
  phoneNumberId: string,
  credentials: GraphCredentials,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; mimeType: string; sha256: string | null }> {
  const info = await graphCall<GraphMediaInfo>('GET', encodeURIComponent(mediaId), credentials, {
    query: { phone_number_id: phoneNumberId },
  });
  if (!info.url) throw new GraphError(200, undefined, 'The Graph API gave no URL for this media');
  await checkMediaUrl(info.url);
  let res: Response;
  try {
    res = await fetch(info.url, {
      headers: { Authorization: `Bearer ${credentials.accessToken}` },
      redirect: 'error',
      signal: AbortSignal.timeout(MEDIA_TIMEOUT_MS),
    });
  } catch (error) {
    throw new GraphError(0, undefined, (error as Error).message);
  }
  if (!res.ok) {
    const json = (await res.json().catch(() => ({}))) as { error?: { code?: number; message?: string } };
    throw new GraphError(res.status, json.error?.code, json.error?.message ?? `The media URL answered ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? info.file_size);
  if (declared > maxBytes) throw new MediaTooLarge(declared, maxBytes);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw new MediaTooLarge(bytes.byteLength, maxBytes);
  return {
    bytes,
    mimeType: info.mime_type ?? res.headers.get('content-type') ?? 'application/octet-stream',
    sha256: info.sha256 ?? null,
  };
}

const MEDIA_TIMEOUT_MS = 15_000;

export class MediaTooLarge extends Error {
  constructor(size: number, max: number) {
    super(`The file has ${size} bytes, more than the ${max} kept.`);
    this.name = 'MediaTooLarge';
  }
}

/** Meta's media URLs are https on public hosts; anything else is not followed with the channel's token. */
async function checkMediaUrl(raw: string): Promise<void> {
  const fake = process.env.WHATSAPP_GRAPH_URL;
  if (fake && new URL(raw).origin === new URL(fake).origin) return;
  try {
    await resolveTarget(checkUrlForm(raw));
  } catch (error) {
    if (error instanceof UnsafeTarget) throw new GraphError(200, undefined, `Unsafe media URL: ${error.message}`);
    throw error;
  }
}

/**
 * POST /{phone_number_id}/media (multipart: `messaging_product`, `type`, `file`): uploads a file to
 * WhatsApp for a send by id. Returns the media id, which Meta keeps for 30 days.
 */
export async function uploadWhatsAppMedia(
  phoneNumberId: string,
  credentials: GraphCredentials,
  file: { bytes: Uint8Array; mimeType: string; filename: string },
): Promise<string> {
  const url = new URL(`${graphBaseUrl()}/${encodeURIComponent(phoneNumberId)}/media`);
  if (credentials.appSecret)
    url.searchParams.set('appsecret_proof', appSecretProof(credentials.accessToken, credentials.appSecret));
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', file.mimeType);
  form.set('file', new Blob([file.bytes], { type: file.mimeType }), file.filename);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credentials.accessToken}` },
      body: form,
      signal: AbortSignal.timeout(MEDIA_TIMEOUT_MS),
    });
  } catch (error) {
    // An upload that may have reached Meta only leaves an unused media id behind: safe to retry.
    throw new GraphError(0, undefined, (error as Error).message);
  }
  const json = (await res.json().catch(() => ({}))) as { id?: string; error?: { code?: number; message?: string } };
  if (!res.ok || json.error || !json.id)
    throw new GraphError(res.status, json.error?.code, json.error?.message ?? `Graph API answered ${res.status}`);
  return json.id;
}
