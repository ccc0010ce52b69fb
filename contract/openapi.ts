/**
 * Builds the OpenAPI 3.1 document from the code: the route table (catalog/routes.ts), the request schemas
 * each handler was built with (`httpHandler` attaches them as `handler.contract`), each feature's
 * `contract.ts` (responses, problem codes, path parameters) and the event catalog (the `webhooks`
 * section). Nothing is kept by hand: `npm run openapi` writes openapi.json, and a test fails when the
 * committed file differs from a fresh generation.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { ROUTES, type RouteDef } from '../catalog/routes';
import { EVENT_TYPES } from '../functions/events/catalog';
import { EVENT_DATA, EVENT_ENVELOPES } from '../functions/events/event-schemas';
import {
  responseSchemas,
  type RouteContract,
  type RouteHeader,
  type SuccessResponse,
} from '../functions/platform/api-contract';
import { STATUS_TEXT, problemType } from '../functions/platform/errors';
import { PROBLEM_DOCS_PATH } from '../catalog/problems';
import type { HandlerContract } from '../functions/http/handler';

type Json = Record<string, unknown>;

const FUNCTIONS_DIR = fileURLToPath(new URL('../functions', import.meta.url));
const PACKAGE_VERSION = '1.0.0';
const SCHEMA_REF = (id: string) => `#/components/schemas/${id}`;

/** Problems no operation answers: the `$default` route's (unknown path, wrong method, malformed path). */
export const GATEWAY_PROBLEMS: Record<string, { status: number; description: string }> = {
  route_not_found: { status: 404, description: 'No route has this path.' },
  method_not_allowed: { status: 405, description: 'The path exists with other methods (see `Allow`).' },
  malformed_path: { status: 400, description: 'The path is not valid (bad percent-encoding).' },
};

/** Tags by feature directory (the first segment of a route's handler). */
const TAGS: Record<string, { name: string; description: string }> = {
  auth: { name: 'Auth', description: 'Login sessions: access and refresh tokens, logout, and who the caller is.' },
  users: { name: 'Users', description: 'The people of a tenant, with roles `admin` and `agent`.' },
  'api-keys': { name: 'API keys', description: 'Keys for server-to-server calls (`sk_…`), shown once.' },
  customers: { name: 'Customers', description: 'The people a tenant talks to and books, found by id or phone number.' },
  conversations: { name: 'Conversations', description: 'Conversations with customers and their messages.' },
  'saved-replies': { name: 'Saved replies', description: 'Canned responses the team sends often, with placeholders.' },
  channels: { name: 'Channels', description: 'The sandbox and WhatsApp Cloud API numbers, and Meta\u2019s webhook.' },
  bookings: {
    name: 'Bookings',
    description: 'Appointments with a lifecycle, rescheduling and no double booking of a resource.',
  },
  ai: { name: 'AI', description: 'Analysis, reply suggestions and categorisation.' },
  webhooks: {
    name: 'Webhooks',
    description: 'Signed HTTPS deliveries of events (Standard Webhooks), with attempt logs and replay.',
  },
  events: {
    name: 'Events',
    description:
      'Everything that happened, kept 30 days. The same envelopes are delivered to webhooks (see the webhooks section).',
  },
  tenants: { name: 'Platform', description: 'The operator API: tenants, with the platform token.' },
  docs: { name: 'Documentation', description: 'This document.' },
};

const DESCRIPTION = `A multi-tenant customer-messaging API: conversations over WhatsApp and a sandbox channel, bookings, AI
functions and signed webhooks.

Every path works under \`/api/v1\` and, as an alias, under \`/v1\`.

**Authentication.** Tenant routes take \`Authorization: Bearer <API key or access token>\` and \`X-Tenant-ID: <tenant uuid>\`.
A missing or non-UUID \`X-Tenant-ID\` is 400 before anything else; another tenant's credential is 403 \`tenant_mismatch\`.
The operator routes under \`/platform\` take the platform token instead.

**Errors** are RFC 9457 \`application/problem+json\` with a stable \`code\`, documented at its \`type\` URL
(docs/problems.md). Each operation lists the codes it can answer, by status. An unknown path is 404
\`route_not_found\`, a known path with another method 405 \`method_not_allowed\` (with \`Allow\`), and a malformed
path 400 \`malformed_path\`, in the same shape.

**Pagination:** \`?limit=1..100\` (default 20) and \`?cursor=\`; lists answer \`{data, pagination: {limit, has_more, next_cursor}}\`.
Cursors are opaque and valid only for the list that issued them.

**Idempotency:** \`Idempotency-Key\` on any authenticated POST replays the first successful response for 24 h
(\`Idempotent-Replayed: true\`); the same key with another method, path or body is 422, while the first runs 409.

**Concurrency:** mutable resources carry \`version\` and an \`ETag\`; \`If-Match\` where documented gives 412 on a mismatch.

**Rate limits:** per tenant per hour, by plan. Responses to tenant credentials carry \`RateLimit-Policy\`, \`RateLimit\`
and \`X-RateLimit-*\` (problems too, once the credential was accepted); 429 and 503 carry \`Retry-After\`.

**Compatibility:** new fields and new problem codes may be added within v1; clients should ignore what they do not know.`;

export interface Generated {
  document: Json;
  /** Every problem code the document names, with its statuses. */
  problemCodes: Map<string, Set<number>>;
}

interface Loaded {
  route: RouteDef;
  handler: HandlerContract;
  contract: RouteContract;
}

/** Imports every handler module named in the route table, and its feature's contract.ts. */
async function loadRoutes(): Promise<Loaded[]> {
  const out: Loaded[] = [];
  for (const route of ROUTES) {
    const mod = (await import(pathToFileURL(`${FUNCTIONS_DIR}/${route.handler}.ts`).href)) as {
      handler?: { contract?: HandlerContract };
    };
    const handler = mod.handler?.contract;
    if (!handler || handler.routeId !== route.id)
      throw new Error(`${route.handler}.ts: expected httpHandler('${route.id}', …)`);
    const feature = route.handler.split('/')[0] ?? '';
    const file = `${FUNCTIONS_DIR}/${feature}/contract.ts`;
    if (!existsSync(file)) throw new Error(`functions/${feature}/contract.ts is missing (route ${route.id})`);
    const contracts =
      ((await import(pathToFileURL(file).href)) as { contract?: Record<string, RouteContract> }).contract ?? {};
    const contract = contracts[route.id];
    if (!contract) throw new Error(`functions/${feature}/contract.ts has no entry for route ${route.id}`);
    const unknown = Object.keys(contracts).filter((id) => !ROUTES.some((r) => r.id === id));
    if (unknown.length) throw new Error(`functions/${feature}/contract.ts names unknown routes: ${unknown.join(', ')}`);
    const templated = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (JSON.stringify(templated) !== JSON.stringify(Object.keys(contract.params ?? {}))) {
      throw new Error(`${route.id}: params must be ${JSON.stringify(templated)}, one per path segment`);
    }
    out.push({ route, handler, contract });
  }
  return out;
}

/**
 * zod → JSON Schema adjustments: date-time, email and uuid strings keep their format and drop zod's long
 * regex; a pipe that checks raw input first (`dataMap`: unknown → record) is described by what it parses to.
 */
const override = ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Json }) => {
  const def = zodSchema._zod.def as { type: string; in?: z.core.$ZodType; out?: z.core.$ZodType };
  if (def.type === 'pipe' && def.in?._zod.def.type === 'unknown' && def.out) {
    const { $schema: _, ...described } = z.toJSONSchema(def.out, {
      io: 'input',
      unrepresentable: 'any',
      override,
      target: 'draft-2020-12',
    }) as Json;
    Object.assign(jsonSchema, described, jsonSchema);
  }
  if (typeof jsonSchema.format === 'string' && typeof jsonSchema.pattern === 'string') delete jsonSchema.pattern;
  // A whole-number query parameter is declared as the integer it stands for (wholeNumberParam's metadata):
  // the digits-only pattern of its text form would contradict the type.
  if (jsonSchema.type === 'integer') delete jsonSchema.pattern;
};

function convert(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override,
    target: 'draft-2020-12',
  }) as Json;
  return json;
}

function convertRegistry(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    override,
    target: 'draft-2020-12',
    uri: SCHEMA_REF,
  }) as { schemas: Record<string, Json> };
  if (schemas.__shared) throw new Error('a schema would land in __shared: give it a name');
  // zod gives each schema an `$id` (its own URI), which would make the refs inside resolve against it.
  const out = Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...json }]) => [id, json]));
  for (const schema of Object.values(out)) addDiscriminators(schema, out);
  return out;
}

/**
 * A `oneOf` of named schemas that each fix one property to a constant (the `type` of an event, the `kind`
 * of a credential) gets an OpenAPI `discriminator`, so SDK generators make a tagged union of it.
 */
function addDiscriminators(node: unknown, schemas: Record<string, Json>): void {
  if (Array.isArray(node)) return node.forEach((n) => addDiscriminators(n, schemas));
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const branches = schema.oneOf as Json[] | undefined;
  if (branches?.length && branches.every((b) => typeof b.$ref === 'string')) {
    const targets = branches.map((b) => schemas[String(b.$ref).split('/').pop() as string]);
    const first = targets[0]?.properties as Record<string, Json> | undefined;
    const property = Object.keys(first ?? {}).find((p) =>
      targets.every((t) => (t?.properties as Record<string, Json> | undefined)?.[p]?.const !== undefined),
    );
    if (property) {
      const mapping = Object.fromEntries(
        branches.map((b, i) => [
          String(((targets[i]?.properties as Record<string, Json>)[property] as Json).const),
          String(b.$ref),
        ]),
      );
      schema.discriminator = { propertyName: property, mapping };
    }
  }
  for (const value of Object.values(schema)) addDiscriminators(value, schemas);
}

/**
 * HEAD beside a GET (RouteDef.head): the GET's responses, each with Content-Length. Their content says
 * what a GET's body would be (and the Content-Type sent); HEAD sends none.
 */
function headOperation(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Json>).map(([status, response]) => [
      status,
      {
        ...response,
        headers: {
          ...(response.headers as Json | undefined),
          'Content-Length': {
            description: 'The length of the body the same GET would answer.',
            schema: { type: 'string', pattern: '^\\d+$' },
            required: true,
          },
        },
      },
    ]),
  );
  // No SDK method of its own: the SDKs call GET.
  const withoutSdk = Object.fromEntries(Object.entries(get).filter(([key]) => !key.startsWith('x-sdk-')));
  return {
    ...withoutSdk,
    operationId: `${String(get.operationId)}Head`,
    summary: `${String(get.summary)}: headers only`,
    description:
      'As GET, without the body: the same status and headers, `Content-Length` the length of the body a GET ' +
      'would answer (described under each response; none is sent).',
    responses,
  };
}

/** Whether a JSON schema has a date or date-time anywhere in it. */
const takesDates = (schema: Json): boolean => /"format":"date(-time)?"/.test(JSON.stringify(schema));

const pascal = (s: string) => s.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase());

/** The problem codes the middleware chain answers before or around the handler, from the route's definition. */
function chainErrors({ route, handler, contract }: Loaded): Map<number, Set<string>> {
  const errors = new Map<number, Set<string>>();
  const add = (status: number, ...codes: string[]) => {
    const set = errors.get(status) ?? new Set<string>();
    for (const c of codes) set.add(c);
    errors.set(status, set);
  };
  // Query strings are strict: an unknown parameter is 400, also where none are taken.
  add(400, 'invalid_query');
  if (handler.query && 'cursor' in (convert(handler.query, 'input').properties as Json)) add(400, 'invalid_cursor');
  if (route.auth === 'tenant') {
    add(400, 'tenant_header_missing', 'tenant_header_invalid');
    add(
      401,
      'credentials_missing',
      'invalid_credentials',
      'invalid_api_key',
      'invalid_token',
      'token_expired',
      'session_revoked',
      'user_disabled',
    );
    add(403, 'tenant_mismatch', 'tenant_suspended');
    if (route.role === 'admin') add(403, 'insufficient_role');
    if (route.rateLimit !== false) add(429, 'rate_limited');
  } else if (route.auth === 'platform') {
    add(401, 'credentials_missing', 'invalid_credentials');
  } else {
    // X-Tenant-ID is optional here, but checked when sent.
    add(400, 'tenant_header_invalid');
  }
  if (route.method === 'POST' || route.method === 'PATCH') {
    add(400, 'malformed_json', 'json_too_deep');
    add(413, 'body_too_large');
    add(415, 'unsupported_media_type');
  }
  // A POST, PATCH or DELETE without a body schema takes no body: anything but none or {} is 422 too.
  if (handler.body || ['POST', 'PATCH', 'DELETE'].includes(route.method)) add(422, 'validation_failed');
  // Every date the API takes is bounded (functions/platform/validation.ts).
  if ([handler.body, handler.query].some((schema) => schema && takesDates(convert(schema, 'input'))))
    add(422, 'date_out_of_range');
  if (route.method === 'POST' && route.auth !== 'none') {
    add(400, 'invalid_idempotency_key');
    add(409, 'idempotency_request_in_progress');
    add(422, 'idempotency_key_reused');
  }
  if (contract.ifMatch) {
    add(400, 'invalid_if_match');
    add(412, 'version_mismatch');
  }
  for (const [status, codes] of Object.entries<readonly string[]>(contract.errors ?? {})) add(Number(status), ...codes);
  add(500, 'internal_error');
  if (route.mainTable !== 'none') add(503, 'dependency_throttled');
  return errors;
}

const rateLimited = (route: RouteDef) => route.auth === 'tenant' && route.rateLimit !== false;

/** Response headers (components/headers), `required` per use. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': { description: 'The request id; also `request_id` in problems.', schema: { type: 'string' } },
  'RateLimit-Policy': {
    description: 'The tenant\u2019s hourly quota (IETF httpapi RateLimit fields), e.g. `"hourly";q=1000;w=3600`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'Requests left and seconds until the window resets, e.g. `"hourly";r=998;t=2234`.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed this hour.', schema: { type: 'string', pattern: '^\\d+$' } },
  'X-RateLimit-Remaining': { description: 'Requests left this hour.', schema: { type: 'string', pattern: '^\\d+$' } },
  'X-RateLimit-Reset': {
    description: 'When the window resets, in epoch seconds.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^\\d+$' } },
  ETag: {
    description: 'The resource\u2019s version, quoted (`"3"`): send it back in If-Match.',
    schema: { type: 'string', pattern: '^"\\d+"$' },
  },
  Location: { description: 'Where the resource can be read (under `/api/v1`).', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'Caching rules (`no-store` when the response carries a secret).',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': { description: '`Bearer`.', schema: { type: 'string' } },
  'Accept-Encoding': {
    description: '`identity`: on a 415 for a compressed body, the only content coding accepted.',
    schema: { type: 'string', enum: ['identity'] },
  },
};
const RATE_LIMIT_HEADERS = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

const headerKey = (name: string) => name.replace(/[^A-Za-z0-9]/g, '');

function headersOf(entries: [string, boolean][]): Json {
  return Object.fromEntries(
    entries.map(([name, required]) => [
      name,
      required
        ? { $ref: `#/components/headers/${headerKey(name)}` }
        : { $ref: `#/components/headers/${headerKey(name)}Optional` },
    ]),
  );
}

function successResponse(loaded: Loaded, response: SuccessResponse, bodyRef: (schema: z.ZodMiniType) => Json): Json {
  const { route } = loaded;
  const headers: [string, boolean][] = [['X-Request-Id', true]];
  if (rateLimited(route)) for (const h of RATE_LIMIT_HEADERS) headers.push([h, true]);
  for (const h of response.headers ?? ([] as RouteHeader[])) headers.push([h, true]);
  if (route.method === 'POST' && route.auth !== 'none') headers.push(['Idempotent-Replayed', false]);
  const content = response.body
    ? { 'application/json': { schema: bodyRef(response.body) } }
    : response.text
      ? { 'text/plain': { schema: convert(response.text, 'output') } }
      : response.html
        ? { 'text/html': { schema: { type: 'string' } } }
        : undefined;
  return { description: response.description, headers: headersOf(headers), ...(content ? { content } : {}) };
}

function errorResponse(route: RouteDef, status: number, codes: string[]): Json {
  const headers: [string, boolean][] = [['X-Request-Id', true]];
  if (status === 429 || status === 503) headers.push(['Retry-After', true]);
  if (status === 401) headers.push(['WWW-Authenticate', true]);
  if (status === 415) headers.push(['Accept-Encoding', false]);
  // Counted requests carry them on every answer, problems included; a 401 (and a 400 or 403 about the
  // tenant header or the credential) comes before counting, so only a 429 always has them.
  if (rateLimited(route) && status !== 401) for (const h of RATE_LIMIT_HEADERS) headers.push([h, status === 429]);
  const list = codes.map((c) => `\`${c}\``).join(', ');
  const [first = 'internal_error'] = codes;
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${list}.`,
    headers: headersOf(headers),
    content: {
      'application/problem+json': {
        schema: {
          allOf: [{ $ref: SCHEMA_REF('Problem') }],
          properties: { status: { const: status }, code: { enum: codes } },
        },
        example: {
          type: problemType(first, PROBLEM_DOCS_PATH),
          title: STATUS_TEXT[status],
          status,
          detail: 'What went wrong, in words.',
          code: first,
          request_id: '7b043e91-3f87-4624-941f-49060d788be5',
        },
      },
    },
  };
}

/**
 * Problems that several operations answer identically move to components/responses, named after their
 * code (`RateLimited`) or, with several codes, after the status and a digest of the codes.
 */
function shareResponses(paths: Record<string, Json>): Record<string, Json> {
  const uses = new Map<string, number>();
  const each = (fn: (responses: Record<string, Json>, status: string) => void) => {
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item) as { responses: Record<string, Json> }[]) {
        for (const status of Object.keys(op.responses)) if (Number(status) >= 400) fn(op.responses, status);
      }
    }
  };
  each((responses, status) => {
    const key = JSON.stringify(responses[status]);
    uses.set(key, (uses.get(key) ?? 0) + 1);
  });
  const names = new Map<string, string>();
  const shared: Record<string, Json> = {};
  each((responses, status) => {
    const key = JSON.stringify(responses[status]);
    if ((uses.get(key) ?? 0) < 2) return;
    let name = names.get(key);
    if (!name) {
      const codes = (
        ((responses[status]?.content as Json)['application/problem+json'] as Json).schema as {
          properties: { code: { enum: string[] } };
        }
      ).properties.code.enum;
      const digest = createHash('sha256').update(codes.join(',')).digest('hex').slice(0, 6);
      name =
        codes.length === 1
          ? pascal(codes[0] as string)
          : `${pascal((STATUS_TEXT[Number(status)] ?? 'Error').replace(/ /g, '-'))}${digest}`;
      if (shared[name]) name = `${name}${createHash('sha256').update(key).digest('hex').slice(0, 6)}`;
      names.set(key, name);
      shared[name] = JSON.parse(key) as Json;
    }
    responses[status] = { $ref: `#/components/responses/${name}` };
  });
  return Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}

/** Query parameters from the handler's strict query schema. */
function queryParameters(schema: z.ZodMiniType | undefined): Json[] {
  if (!schema) return [];
  const json = convert(schema, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Record<string, Json>) ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

/**
 * What the SDK generators (each SDK's scripts/ folder) read: the resource and method an operation becomes,
 * whether the hand-written session code makes the call instead, and whether it is a cursor-paginated list
 * (a `cursor` query parameter), which the SDKs walk page by page.
 */
function sdkExtensions(route: RouteDef, parameters: Json[], seen: Set<string>): Json {
  if (!route.sdk) return {};
  const { resource, method, core } = route.sdk;
  const name = `${resource}.${method}`;
  if (seen.has(name)) throw new Error(`${route.id}: the SDK name ${name} is taken by another route`);
  seen.add(name);
  if (![...resource.split('.'), method].every((word) => /^[a-z][a-z0-9_]*$/.test(word)))
    throw new Error(`${route.id}: SDK names are snake_case words (${name})`);
  const paginated = parameters.some((p) => p.in === 'query' && p.name === 'cursor');
  return {
    'x-sdk-resource': resource,
    'x-sdk-method': method,
    ...(core ? { 'x-sdk-core': true } : {}),
    ...(paginated ? { 'x-sdk-paginated': true } : {}),
  };
}

const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size, 1 to 100 (default 20), in plain decimal digits.',
  cursor: 'The `next_cursor` of the previous page.',
};

export async function generate(): Promise<Generated> {
  const loaded = await loadRoutes();
  const requestSchemas = z.registry<{ id: string }>();
  const requestNames = new Map<z.ZodMiniType, string>();
  for (const { handler, contract } of loaded) {
    if (handler.body && !requestNames.has(handler.body)) {
      const id = `${pascal(contract.operationId)}Request`;
      requestSchemas.add(handler.body, { id });
      requestNames.set(handler.body, id);
    }
  }
  const outputSchemas = convertRegistry(responseSchemas, 'output');
  const inputSchemas = convertRegistry(requestSchemas, 'input');
  for (const id of Object.keys(inputSchemas)) if (outputSchemas[id]) throw new Error(`schema name ${id} is used twice`);

  const outputName = (schema: z.ZodMiniType): Json => {
    const id = responseSchemas.get(schema)?.id;
    if (!id) throw new Error('every response body must be a named schema (named() in a contract.ts)');
    return { $ref: SCHEMA_REF(id) };
  };

  const problemCodes = new Map<string, Set<number>>();
  const note = (code: string, status: number) =>
    problemCodes.set(code, (problemCodes.get(code) ?? new Set()).add(status));
  for (const [code, { status }] of Object.entries(GATEWAY_PROBLEMS)) note(code, status);

  const paths: Record<string, Json> = {};
  const operationIds = new Set<string>();
  const sdkNames = new Set<string>();
  for (const item of loaded) {
    const { route, handler, contract } = item;
    if (operationIds.has(contract.operationId)) throw new Error(`duplicate operationId ${contract.operationId}`);
    operationIds.add(contract.operationId);
    const parameters: Json[] = [];
    for (const [name, schema] of Object.entries(contract.params ?? {}))
      parameters.push({ name, in: 'path', required: true, schema: convert(schema, 'output') });
    for (const p of queryParameters(handler.query))
      parameters.push({
        ...p,
        ...(QUERY_DESCRIPTIONS[String(p.name)] ? { description: QUERY_DESCRIPTIONS[String(p.name)] } : {}),
      });
    if (route.auth === 'tenant') parameters.push({ $ref: '#/components/parameters/TenantId' });
    if (route.auth === 'none' && route.id.startsWith('auth-'))
      parameters.push({ $ref: '#/components/parameters/TenantIdOptional' });
    if (route.method === 'POST' && route.auth !== 'none')
      parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (contract.ifMatch) parameters.push({ $ref: '#/components/parameters/IfMatch' });
    for (const [name, h] of Object.entries(contract.headers ?? {})) {
      parameters.push({
        name,
        in: 'header',
        required: h.required === true,
        description: h.description,
        schema: { type: 'string' },
      });
    }

    const responses: Record<string, Json> = {};
    for (const [status, response] of Object.entries<SuccessResponse>(contract.responses)) {
      responses[status] = successResponse(item, response, outputName);
    }
    for (const [status, codes] of [...chainErrors(item).entries()].sort(([a], [b]) => a - b)) {
      const list = [...codes].sort();
      for (const c of list) note(c, status);
      responses[String(status)] = errorResponse(route, status, list);
    }

    const security =
      route.auth === 'platform'
        ? [{ PlatformToken: [] }]
        : route.auth === 'none'
          ? []
          : route.id === 'auth-logout'
            ? [{ AccessToken: [] }]
            : [{ ApiKey: [] }, { AccessToken: [] }];
    const notes: string[] = [];
    if (route.role === 'admin') notes.push('Needs the `admin` role.');
    if (route.auth === 'tenant' && route.rateLimit === false) notes.push('Not counted against the hourly rate limit.');
    const description = [contract.description, ...notes].filter(Boolean).join('\n\n');
    const body = handler.body;
    let requestBody: Json | undefined;
    if (body) {
      const id = requestNames.get(body) as string;
      const bodyJson = inputSchemas[id] ?? {};
      const hasRequired = Array.isArray(bodyJson.required) && bodyJson.required.length > 0;
      requestBody = {
        required: hasRequired,
        content: {
          'application/json': {
            schema: { $ref: SCHEMA_REF(id) },
            ...(contract.requestExample !== undefined ? { example: contract.requestExample } : {}),
          },
        },
      };
    }
    const feature = route.handler.split('/')[0] ?? '';
    const operation: Json = {
      operationId: contract.operationId,
      summary: contract.summary,
      ...(description ? { description } : {}),
      tags: [TAGS[feature]?.name ?? pascal(feature)],
      security,
      ...(route.role ? { 'x-required-role': route.role } : {}),
      ...sdkExtensions(route, parameters, sdkNames),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
    paths[route.path] = {
      ...(paths[route.path] ?? {}),
      [route.method.toLowerCase()]: operation,
      ...(route.head ? { head: headOperation(operation) } : {}),
    };
  }

  const sharedResponses = shareResponses(paths);

  const webhooks: Record<string, Json> = {};
  for (const type of EVENT_TYPES) {
    const id = responseSchemas.get(EVENT_ENVELOPES[type])?.id as string;
    webhooks[type] = {
      post: {
        operationId: `on${pascal(type.replace(/\./g, '-'))}`,
        summary: type,
        description: `${EVENT_DATA[type].description}\n\nDelivered to every active endpoint subscribed to \`${type}\` (or a pattern that matches it).`,
        tags: ['Webhook events'],
        security: [],
        parameters: [
          { $ref: '#/components/parameters/WebhookId' },
          { $ref: '#/components/parameters/WebhookTimestamp' },
          { $ref: '#/components/parameters/WebhookSignature' },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: SCHEMA_REF(id) } } } },
        responses: {
          '2XX': { description: 'Any 2xx acknowledges the delivery.' },
          default: {
            description:
              'Anything else, a redirect or no answer within 10 s is retried after 1, 5, 25, 125 and 625 s, then the delivery fails.',
          },
        },
      },
    };
  }

  // Only the header components something refers to (required and optional uses are separate components).
  const used = JSON.stringify([paths, sharedResponses]);
  const componentHeaders: Json = {};
  for (const [name, header] of Object.entries(HEADERS)) {
    if (used.includes(`"#/components/headers/${headerKey(name)}"`))
      componentHeaders[headerKey(name)] = { ...header, required: true };
    if (used.includes(`"#/components/headers/${headerKey(name)}Optional"`))
      componentHeaders[`${headerKey(name)}Optional`] = header;
  }

  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Messaging Platform API',
      version: PACKAGE_VERSION,
      summary: 'Conversations, bookings, AI functions and signed webhooks, for many tenants.',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [
      { url: 'http://127.0.0.1:3000/api/v1', description: 'The local runtime (`npm start`)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/api/v1',
        description: 'A deployment (the `OpenApiUrl` stack output names it)',
        variables: { apiId: { default: 'abc123defg' }, region: { default: 'eu-central-1' } },
      },
    ],
    security: [{ ApiKey: [] }, { AccessToken: [] }],
    tags: [
      ...Object.values(TAGS).map(({ name, description }) => ({ name, description })),
      {
        name: 'Webhook events',
        description: 'What your endpoint receives: the event envelope of each type, signed (Standard Webhooks).',
      },
    ],
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(
        Object.entries({ ...outputSchemas, ...inputSchemas }).sort(([a], [b]) => a.localeCompare(b)),
      ),
      parameters: {
        TenantId: {
          name: 'X-Tenant-ID',
          in: 'header',
          required: true,
          description: 'The tenant\u2019s id.',
          schema: { type: 'string', format: 'uuid' },
        },
        TenantIdOptional: {
          name: 'X-Tenant-ID',
          in: 'header',
          required: false,
          description: 'The tenant, when the email (or token) could belong to several.',
          schema: { type: 'string', format: 'uuid' },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the POST safe to retry: the first successful response is replayed for 24 h.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
        IfMatch: {
          name: 'If-Match',
          in: 'header',
          required: false,
          description: 'The ETag the change is based on (`"3"`, or `*`): 412 when the resource has changed since.',
          schema: { type: 'string' },
        },
        WebhookId: {
          name: 'webhook-id',
          in: 'header',
          required: true,
          description: 'The event id: dedupe on it (deliveries are at least once).',
          schema: { type: 'string' },
        },
        WebhookTimestamp: {
          name: 'webhook-timestamp',
          in: 'header',
          required: true,
          description: 'Unix seconds of this attempt.',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        WebhookSignature: {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          description:
            '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the `whsec_` secret; ' +
            'two signatures separated by a space for 24 h after a rotation. `X-Service-Signature` carries the same value.',
          schema: { type: 'string' },
        },
      },
      responses: sharedResponses,
      headers: componentHeaders,
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_…',
          description: 'An API key (`sk_` + 40 characters), with `X-Tenant-ID`.',
        },
        AccessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from `POST /auth/login` (30 minutes), with `X-Tenant-ID`.',
        },
        PlatformToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The operator\u2019s platform token, for `/platform/*` only.',
        },
      },
    },
  };
  return { document, problemCodes };
}
