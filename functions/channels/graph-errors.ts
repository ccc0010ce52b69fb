/**
 * What a Graph API error means for a send, decided by Meta's `error.code` rather than the HTTP status:
 * Meta reports throttling mostly as HTTP 400 with no Retry-After. Pure: no I/O.
 */
export type GraphErrorDecision =
  /** Try again later; `minWaitMs` when Meta documents a minimum wait. */
  | { kind: 'retry'; minWaitMs?: number }
  /** Will never succeed as sent: fail the message with this reason. */
  | { kind: 'fail' }
  /** The channel's token is expired or revoked: flag the channel, stop sending, tell the tenant. */
  | { kind: 'reauthorize' };

/** Throttling: application (4), account (80007), Cloud API throughput (130429), business–user pair (131056). */
const THROTTLING = new Set([4, 80007, 130429, 131056]);
/** Transient failures on Meta's side: unknown (1), service (2), something went wrong (131000), service unavailable (131016), server temporarily unavailable (133004). */
const TRANSIENT = new Set([1, 2, 131000, 131016, 133004]);
/** Expired or revoked access token (190), and the session errors Meta reports beside it (102, 0). */
const REAUTHORIZE = new Set([0, 102, 190]);
/**
 * Meta's pair rate limit allows about one message every six seconds to the same customer: waiting less
 * only earns another 131056.
 */
export const PAIR_RATE_LIMIT_WAIT_MS = 6_000;

export function decideGraphError(httpStatus: number, code: number | undefined): GraphErrorDecision {
  if (code !== undefined) {
    if (code === 131056) return { kind: 'retry', minWaitMs: PAIR_RATE_LIMIT_WAIT_MS };
    if (THROTTLING.has(code) || TRANSIENT.has(code)) return { kind: 'retry' };
    if (REAUTHORIZE.has(code)) return { kind: 'reauthorize' };
    // Every other documented code (100 invalid parameter, 131026 undeliverable, 131047 re-engagement
    // required, 131051 unsupported type, 132xxx template errors, …) is permanent as sent.
    return { kind: 'fail' };
  }
  // No Meta error body: judge by the transport.
  if (httpStatus === 0 || httpStatus === 429 || httpStatus >= 500) return { kind: 'retry' };
  if (httpStatus === 401) return { kind: 'reauthorize' };
  return { kind: 'fail' };
}

/** A reason a person can act on, for the codes agents meet most; Meta's own message otherwise. */
const REASONS: Record<number, string> = {
  100: 'WhatsApp refused a parameter of the message.',
  131026:
    'The message could not be delivered: the number may not be on WhatsApp, or it has not accepted the latest terms.',
  131047:
    'Re-engagement required: more than 24 hours have passed since the customer last wrote, so only an approved template may be sent (give `fallback_template`).',
  131052: 'WhatsApp could not download the media: check that its URL is public and answers with the file.',
  131053: 'WhatsApp could not process the media: it is too large, or its type is not one WhatsApp takes.',
  132000: 'The number of parameters does not match the template.',
  132001: 'WhatsApp has no approved template of this name in this language (missing, deleted or not yet approved).',
  132005: 'The template with its parameters filled in is too long.',
  132007: 'The template breaks WhatsApp\u2019s policy.',
  132012: 'A template parameter is not in the format the template expects.',
  132015: 'The template is paused by WhatsApp for low quality: edit it or use another.',
  132016: 'The template is disabled by WhatsApp: use another.',
  131051: 'WhatsApp does not support this message type.',
  131062: 'This message type cannot be sent to a customer known only by their WhatsApp username.',
  190: 'The WhatsApp access token has expired or was revoked: reconnect the number.',
};

export const graphErrorReason = (code: number | undefined, metaMessage: string): string =>
  (code !== undefined ? REASONS[code] : undefined) ?? metaMessage;

/** Graph API versions with Meta's published release and expiry dates (null: not announced yet). */
export const GRAPH_VERSIONS: Record<string, { released: string; expires: string | null }> = {
  'v21.0': { released: '2024-10-02', expires: '2027-01-21' },
  'v22.0': { released: '2025-01-21', expires: '2027-05-20' },
  'v23.0': { released: '2025-05-29', expires: '2027-10-08' },
  'v24.0': { released: '2025-10-08', expires: '2028-02-18' },
  'v25.0': { released: '2026-02-18', expires: '2028-07-29' },
  'v26.0': { released: '2026-07-29', expires: null },
};
export const DEFAULT_GRAPH_VERSION = 'v26.0';
/** Operators are warned this long before a configured version expires. */
export const SUNSET_WARNING_DAYS = 90;

export type GraphVersionStatus =
  | { status: 'current'; version: string }
  | { status: 'sunsetting'; version: string; expires: string; daysLeft: number }
  | { status: 'expired'; version: string; expires: string }
  | { status: 'unknown'; version: string };

/** Whether a configured Graph API version is still served, and for how long. */
export function graphVersionStatus(version: string, now: Date): GraphVersionStatus {
  const known = GRAPH_VERSIONS[version];
  if (!known) return { status: 'unknown', version };
  if (!known.expires) return { status: 'current', version };
  const daysLeft = Math.floor((Date.parse(`${known.expires}T00:00:00Z`) - now.getTime()) / 86_400_000);
  if (daysLeft <= 0) return { status: 'expired', version, expires: known.expires };
  if (daysLeft <= SUNSET_WARNING_DAYS) return { status: 'sunsetting', version, expires: known.expires, daysLeft };
  return { status: 'current', version };
}
