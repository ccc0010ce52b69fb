import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Contract tests: every response the end-to-end suite gets through `call()` is checked against the
 * committed openapi.json. The status must be documented for the operation, the body must match its
 * schema for the response's content type, and the required headers must be there. Violations are
 * collected and fail the test that produced them (test/support/contract-setup.ts).
 */
type Json = Record<string, any>;

const SPEC_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));
const SPEC_ID = 'https://contract.test/openapi.json';
const PREFIXES = ['/api/v1', '/v1'];
/** What the `$default` route answers for a path no operation has (documented in the description). */
const GATEWAY_CODES: Record<number, string> = {
  400: 'malformed_path',
  404: 'route_not_found',
  405: 'method_not_allowed',
};

const RATE_LIMIT_HEADERS = [
  'ratelimit-policy',
  'ratelimit',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

let loaded: { spec: Json; ajv: Ajv2020; operations: { pattern: RegExp; path: string }[] } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Json;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document's other keywords are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...spec, $id: SPEC_ID });
  const operations = Object.keys(spec.paths as Json).map((path) => ({
    path,
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}/?$`),
  }));
  loaded = { spec, ajv, operations };
  return loaded;
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validatorAt(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    const { ajv } = load();
    validate = ajv.compile({ $ref: `${SPEC_ID}#${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}

/** Follows a `$ref` inside the document; returns the target and its JSON pointer. */
function resolve(node: Json, at: string): { node: Json; at: string } {
  if (typeof node?.$ref !== 'string') return { node, at };
  const ref = String(node.$ref).replace(/^#/, '');
  let target: any = load().spec;
  for (const seg of ref.split('/').slice(1)) target = target?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  return { node: target as Json, at: ref };
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? `: ${e.params.additionalProperty}` : ''}`,
    )
    .join('; ');

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export interface CheckedResponse {
  method: string;
  /** The request path with its prefix, and optionally its query string. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** The ways a response breaks the contract (none when it keeps it). */
export function contractViolations(res: CheckedResponse): string[] {
  const { spec } = load();
  const method = res.method.toLowerCase();
  const rawPath = res.path.split('?')[0] ?? '';
  const prefix = PREFIXES.find((p) => rawPath === p || rawPath.startsWith(`${p}/`));
  const path = prefix ? rawPath.slice(prefix.length) : rawPath;
  const where = `${res.method} ${res.path} → ${res.status}`;
  // A path that does not decode (bad percent-encoding) reaches no operation: the `$default` route answers it.
  const candidates = prefix && decodes(path) ? load().operations.filter((o) => o.pattern.test(path)) : [];
  const found = candidates.find((o) => spec.paths[o.path][method]);
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';

  if (!found) {
    // No operation: the `$default` route's problem, in the usual shape.
    const problems: string[] = [];
    const code = GATEWAY_CODES[res.status];
    if (!code) return [`${where}: no operation matches, and ${res.status} is not what the API answers then`];
    if (contentType !== 'application/problem+json') problems.push(`${where}: content type ${contentType || '(none)'}`);
    const validate = validatorAt('/components/schemas/Problem');
    if (!validate(res.body)) problems.push(`${where}: not a Problem: ${describeErrors(validate)}`);
    if ((res.body as Json)?.code !== code)
      problems.push(`${where}: code ${(res.body as Json)?.code} instead of ${code}`);
    return problems;
  }

  const opAt = pointer('', 'paths', found.path, method);
  const operation = spec.paths[found.path][method] as Json;
  const documented = operation.responses[String(res.status)]
    ? String(res.status)
    : operation.responses.default
      ? 'default'
      : undefined;
  if (!documented)
    return [
      `${where}: status ${res.status} is not documented for ${operation.operationId} (${Object.keys(operation.responses).join(', ')})`,
    ];
  const { node: response, at: responseAt } = resolve(
    operation.responses[documented],
    `${opAt}/responses/${pointer(documented)}`,
  );
  const problems: string[] = [];

  const content = response.content as Json | undefined;
  if (res.method.toUpperCase() === 'HEAD') {
    // The content a GET would send: its type is sent, the body never.
    if (res.text !== '') problems.push(`${where}: HEAD answered a body: ${res.text.slice(0, 100)}`);
    if (content && !content[contentType])
      problems.push(
        `${where}: content type ${contentType || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
      );
  } else if (!content) {
    if (res.text !== '') problems.push(`${where}: documented without a body, got ${res.text.slice(0, 100)}`);
  } else if (!content[contentType]) {
    problems.push(
      `${where}: content type ${contentType || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
    );
  } else {
    const validate = validatorAt(`${responseAt}/content/${pointer(contentType)}/schema`);
    const value = contentType.startsWith('text/') ? res.text : res.body;
    if (!validate(value))
      problems.push(
        `${where}: body does not match ${operation.operationId}'s ${documented} schema: ${describeErrors(validate)}`,
      );
  }

  for (const [name, declared] of Object.entries((response.headers ?? {}) as Json)) {
    const { node: header, at: headerAt } = resolve(declared as Json, `${responseAt}/headers/${pointer(name)}`);
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`${where}: required header ${name} is missing`);
      continue;
    }
    const validate = validatorAt(`${headerAt}/schema`);
    if (!validate(value)) problems.push(`${where}: header ${name}: ${String(value)} ${describeErrors(validate)}`);
  }
  // A typed client reads only what the contract declares: a rate-limit header sent must be declared there.
  const declared = new Set(Object.keys((response.headers ?? {}) as Json).map((name) => name.toLowerCase()));
  for (const name of RATE_LIMIT_HEADERS) {
    if (res.headers.get(name) !== null && !declared.has(name))
      problems.push(`${where}: header ${name} is sent but not declared`);
  }
  return problems;
}

/** The ways a webhook delivery breaks the `webhooks` section: its envelope and its signature headers. */
export function webhookViolations(headers: Record<string, string | string[] | undefined>, rawBody: string): string[] {
  const { spec } = load();
  let body: Json;
  try {
    body = JSON.parse(rawBody) as Json;
  } catch {
    return [`webhook delivery: the body is not JSON: ${rawBody.slice(0, 100)}`];
  }
  const type = String(body?.type);
  const where = `webhook ${type} ${String(body?.id)}`;
  const operation = spec.webhooks?.[type]?.post as Json | undefined;
  if (!operation) return [`${where}: no webhooks entry for this type`];
  const problems: string[] = [];
  const validate = validatorAt(
    `${pointer('', 'webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema')}`,
  );
  if (!validate(body)) problems.push(`${where}: body does not match: ${describeErrors(validate)}`);
  for (const parameter of operation.parameters as Json[]) {
    const { node } = resolve(parameter, '');
    if (node.in === 'header' && node.required && headers[String(node.name).toLowerCase()] === undefined)
      problems.push(`${where}: header ${String(node.name)} is missing`);
  }
  return problems;
}

const pending: string[] = [];

/** Records what a response got wrong; the test that made it fails (contract-setup.ts). */
export function recordContract(res: CheckedResponse): void {
  pending.push(...contractViolations(res));
}

/** Records what a webhook delivery got wrong (test/support/receiver.ts). */
export function recordWebhook(headers: Record<string, string | string[] | undefined>, rawBody: string): void {
  pending.push(...webhookViolations(headers, rawBody));
}

/** The violations recorded since the last call, cleared. */
export function takeViolations(): string[] {
  return pending.splice(0);
}
