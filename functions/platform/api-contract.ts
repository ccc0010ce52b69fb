import * as z from 'zod/mini';
import type { IdPrefix } from './ids';

/**
 * What each feature's `contract.ts` declares about its routes for the OpenAPI document (`npm run
 * openapi`): the responses with their zod schemas, and the problem codes its own code can answer. The
 * request schemas are not repeated here: `httpHandler` attaches them to the handler. Only the document
 * generator and the tests import contract files, so none of this reaches a handler bundle.
 */

/** Named response schemas: each becomes `#/components/schemas/<id>` (a duplicate id throws). */
export const responseSchemas = z.registry<{ id: string }>();

/** Registers a response schema under a component name, so the document and the SDK call it that. */
export function named<T extends z.ZodMiniType>(id: string, schema: T): T {
  responseSchemas.add(schema, { id });
  return schema;
}

/** Response headers a route sets itself; the generator adds the chain's own (rate limit, request id …). */
export type RouteHeader = 'ETag' | 'Location' | 'Cache-Control';

export interface SuccessResponse {
  description: string;
  /** The JSON body. Without `body` or `text` the response has none (204). */
  body?: z.ZodMiniType;
  /** A text/plain body (Meta's verification handshake). */
  text?: z.ZodMiniType;
  /** A text/html page (a customer's payment page). */
  html?: true;
  headers?: readonly RouteHeader[];
}

export type SuccessStatus = 200 | 201 | 202 | 204;
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429;

export interface RouteContract {
  /** Stable operation id (the SDK's method name). */
  operationId: string;
  summary: string;
  description: string;
  /** Path parameters, one per `{name}` in the route's path. */
  params?: Record<string, z.ZodMiniType>;
  /** The handler honours If-Match (412 `version_mismatch` when the version moved). */
  ifMatch?: true;
  /** Other request headers the handler reads. */
  headers?: Record<string, { description: string; required?: true }>;
  responses: Partial<Record<SuccessStatus, SuccessResponse>>;
  /**
   * Problem codes this route's own code answers, by status. The middleware chain's codes (tenant header,
   * credentials, role, rate limit, body, query, idempotency, If-Match, 503) are added from the route table.
   */
  errors?: Partial<Record<ErrorStatus, readonly string[]>>;
  /** An example request body; the tests check it against the request schema. */
  requestExample?: unknown;
}

/** A feature's routes, keyed by route id (catalog/routes.ts). */
export const defineContract = <T extends Record<string, RouteContract>>(routes: T): T => routes;

// Building blocks shared by every feature's representations.

/** A ULID of the given prefix, valid as an example of that id. */
export const exampleId = (prefix: IdPrefix | 'rt') => `${prefix}_01JDQ8ZK3M4N5P6Q7R8S9T0V1W`;

/** A public id: a type prefix and a ULID (`usr_01…`). */
export const resourceId = (prefix: IdPrefix) =>
  z.string().check(z.meta({ pattern: `^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`, examples: [exampleId(prefix)] }));

export const EXAMPLE_TENANT_ID = '83c27e80-76f3-49ca-a17d-b8b1d6c80254';
export const tenantId = z.string().check(z.meta({ format: 'uuid', examples: [EXAMPLE_TENANT_ID] }));

/** An instant as the API writes it: ISO 8601 in UTC. */
export const timestamp = z.string().check(z.meta({ format: 'date-time', examples: ['2026-11-21T22:22:45.841Z'] }));

/** Optimistic-concurrency version; the ETag is its quoted value. */
export const version = z
  .int()
  .check(z.minimum(1), z.meta({ description: 'Incremented by every change; sent back as the ETag ("3").' }));

export const role = z.enum(['admin', 'agent']);

export const FieldError = named('FieldError', z.object({ path: z.string(), message: z.string() }));

/** RFC 9457 problem details, as every 4xx and 5xx answers (functions/platform/errors.ts). */
export const Problem = named(
  'Problem',
  z.object({
    type: z.string().check(
      z.meta({
        format: 'uri-reference',
        description:
          'Where the code is documented (docs/problems.md): the deployment’s own `/docs/problems#<code>`, absolute or relative to the API’s address.',
      }),
    ),
    title: z.string().check(z.meta({ description: 'The HTTP status text.' })),
    status: z.int().check(z.minimum(400), z.maximum(599)),
    detail: z.string().check(z.meta({ description: 'What went wrong, for people; do not parse it.' })),
    code: z
      .string()
      .check(
        z.meta({ pattern: '^[a-z][a-z0-9_]*$', description: 'Stable machine-readable code; each is documented.' }),
      ),
    request_id: z.string().check(z.meta({ description: 'Also in X-Request-Id; quote it when reporting a problem.' })),
    errors: z.optional(z.array(FieldError).check(z.meta({ description: 'Each invalid field (validation problems).' }))),
    tenants: z.optional(
      z.array(z.object({ id: z.uuid(), name: z.string() })).check(
        z.meta({
          description:
            '`tenant_required` only: the tenants where this email and password are right, to send one as X-Tenant-ID.',
        }),
      ),
    ),
    conflicting_booking: z.optional(
      z.object({ id: z.string(), resource_id: z.string(), start_at: timestamp, end_at: timestamp }).check(
        z.meta({
          description: '`booking_conflict` only: the active booking of the resource that holds part of this time.',
        }),
      ),
    ),
  }),
);

export const Pagination = named(
  'Pagination',
  z.object({
    limit: z.int().check(z.minimum(1), z.maximum(100)),
    has_more: z.boolean(),
    next_cursor: z
      .nullable(z.string())
      .check(z.meta({ description: 'Pass as `cursor` for the next page; null on the last.' })),
  }),
);

/** The list envelope `{data, pagination}`, named `<id>`. */
export const page = <T extends z.ZodMiniType>(id: string, item: T) =>
  named(id, z.object({ data: z.array(item), pagination: Pagination }));
