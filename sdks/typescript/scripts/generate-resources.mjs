// Generates src/generated/resources.ts, the SDK's resource classes, from the repository's openapi.json:
// one class per `x-sdk-resource`, one method per `x-sdk-method` (camelCase), `x-sdk-paginated` lists as
// PagedLists, path parameters as leading arguments, the query or JSON body as one object, per-call options
// last (ConditionalRequestOptions where If-Match is honoured), the operation's summary and description as
// its doc comment. Operations marked `x-sdk-core` (login, refresh) are the hand-written core's.
//
//   node scripts/generate-resources.mjs           write it
//   node scripts/generate-resources.mjs --check   exit 1, naming the drift, if the committed file differs
//   node scripts/generate-resources.mjs --spec path/to/openapi.json [--check]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const specArg = process.argv.indexOf('--spec');
const specPath = specArg > 0 ? process.argv[specArg + 1] : join(sdkRoot, '../../openapi.json');
const target = join(sdkRoot, 'src/generated/resources.ts');
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Words spelt their own way in identifiers. */
const WORDS = { whatsapp: 'WhatsApp', api: 'Api', ai: 'Ai' };

const word = (w, first) => (first ? w : WORDS[w] ?? w[0].toUpperCase() + w.slice(1));
const camel = (snake) => snake.split('_').map((w, i) => word(w, i === 0)).join('');
const pascal = (snake) => snake.split('_').map((w) => WORDS[w] ?? w[0].toUpperCase() + w.slice(1)).join('');
const singular = (plural) => plural.replace(/ies$/, 'y').replace(/s$/, '');
const refName = (ref) => ref.split('/').pop();

/** The operations the SDK offers, in the contract's order, each with what its method needs. */
export function operationsOf(spec) {
  const schemas = spec.components.schemas;
  const resolve = (node) => (node?.$ref ? resolve(schemas[refName(node.$ref)]) : node);
  const isInstant = (schema) => {
    const s = resolve(schema) ?? {};
    return s.format === 'date-time' || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isInstant);
  };
  const out = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.['x-sdk-resource'] || op['x-sdk-core']) continue;
      const params = (op.parameters ?? []).map((p) => (p.$ref ? spec.components.parameters[refName(p.$ref)] : p));
      const query = params.filter((p) => p.in === 'query');
      const bodyRef = op.requestBody?.content?.['application/json']?.schema?.$ref;
      const bodySchema = bodyRef ? schemas[refName(bodyRef)] : undefined;
      const bodyProps = Object.keys(bodySchema?.properties ?? {});
      const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
      const json = success.map(([, r]) => r.content?.['application/json']?.schema).filter(Boolean);
      const security = op.security ?? spec.security;
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        resource: op['x-sdk-resource'],
        name: op['x-sdk-method'],
        paginated: op['x-sdk-paginated'] === true,
        doc: [op.summary ? `${op.summary}.` : '', op.description ?? ''].filter(Boolean).join(' '),
        auth: security.length === 0 ? 'none' : security.some((s) => 'PlatformToken' in s) ? 'platform' : 'tenant',
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
        query: query.map((p) => ({ name: p.name, required: p.required === true, instant: isInstant(p.schema) })),
        body: bodySchema
          ? {
              props: bodyProps,
              required: bodySchema.required ?? [],
              instants: bodyProps.filter((p) => isInstant(bodySchema.properties[p])),
            }
          : undefined,
        ifMatch: params.some((p) => p.in === 'header' && p.name === 'If-Match'),
        response: json.length === 1 && json[0].$ref ? refName(json[0].$ref) : json.length ? 'union' : undefined,
        responseSchema: json.length === 1 ? resolve(json[0]) : undefined,
      });
    }
  }
  return out;
}

/** A doc comment, wrapped to about 110 columns. */
function docComment(text, indent) {
  const words = text.replace(/\*\//g, '*\\/').split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + 3 + line.length + 1 + w.length > 110) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length === 1 && indent.length + lines[0].length + 7 <= 110) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

const instantsType = (names) => (names.length ? `, ${names.map((n) => `'${n}'`).join(' | ')}` : '');

function method(op) {
  const nested = op.resource.includes('.');
  const parent = op.resource.split('.').slice(-2)[0];
  // The parent's `{id}` of a sub-resource is named after it: conversations.messages.list(conversationId).
  const argOf = (name) => (nested && name === 'id' ? `${camel(singular(parent))}Id` : camel(name));
  const args = op.pathParams.map((p) => `${argOf(p)}: string`);
  let route = `'${op.path}'`;
  if (op.pathParams.length) route = `path\`${op.path.replace(/\{(\w+)\}/g, (_m, p) => `\${${argOf(p)}}`)}\``;
  const init = [];
  if (op.query.length) {
    const instants = instantsType(op.query.filter((q) => q.instant).map((q) => q.name));
    if (op.paginated) args.push(`params?: ListParams<'${op.id}'${instants}>`);
    else {
      const optional = op.query.every((q) => !q.required) ? '?' : '';
      args.push(`params${optional}: QueryOf<'${op.id}'${instants}>`);
      init.push('query: { ...params }');
    }
  }
  if (op.body?.props.length) {
    const name = op.method === 'PATCH' ? 'changes' : 'params';
    args.push(`${name}: BodyOf<'${op.id}'${instantsType(op.body.instants)}>`);
    init.push(`body: ${name}`);
  } else if (op.body) init.push('body: {}');
  args.push(`options?: ${op.ifMatch ? 'ConditionalRequestOptions' : 'RequestOptions'}`);
  init.push('options');
  const name = camel(op.name);
  const lines = docComment(op.doc, '  ');
  const signature = `${name}(${args.join(', ')})`;
  const call = `this.call('${op.method}', ${route}, { ${init.join(', ')} })`;
  const schema = op.responseSchema;
  const onlyData = schema?.type === 'object' && Object.keys(schema.properties ?? {}).join() === 'data';
  if (op.paginated) {
    const items = schema.properties.data.items;
    const item = items.$ref ? `Schemas['${refName(items.$ref)}']` : `Schemas['${op.response}']['data'][number]`;
    lines.push(`  ${signature}: PagedList<${item}> {`, `    return this.pagedList(${route}, params, options);`, '  }');
  } else if (!op.response) {
    lines.push(`  async ${signature}: Promise<void> {`, `    await ${call.replace("this.call(", 'this.call<undefined>(')};`, '  }');
  } else if (onlyData && op.response !== 'union') {
    // A list that is not paginated answers `{ data: [...] }`: the SDK returns the array.
    const type = `Schemas['${op.response}']['data']`;
    lines.push(
      `  async ${signature}: Promise<${type}> {`,
      `    const body = await ${call.replace('this.call(', `this.call<Schemas['${op.response}']>(`)};`,
      '    return body.data;',
      '  }',
    );
  } else {
    const type = op.response === 'union' ? `ResponseBody<'${op.id}'>` : `Schemas['${op.response}']`;
    lines.push(`  ${signature}: Promise<${type}> {`, `    return ${call};`, '  }');
  }
  return lines;
}

export function render(spec) {
  const ops = operationsOf(spec);
  const resources = [...new Set(ops.map((o) => o.resource))];
  const classes = [];
  for (const resource of resources) {
    const own = ops.filter((o) => o.resource === resource);
    const auth = [...new Set(own.map((o) => o.auth))];
    if (auth.length > 1) throw new Error(`${resource}: operations with different credentials (${auth.join(', ')})`);
    const children = resources.filter((r) => r.startsWith(`${resource}.`) && !r.slice(resource.length + 1).includes('.'));
    const className = pascal(resource.split('.').pop());
    const lines = [`/** \`client.${resource.split('.').map(camel).join('.')}\`. */`, `export class ${className} extends ApiResource {`];
    if (auth[0] !== 'tenant') lines.push(`  protected override readonly auth: AuthKind = '${auth[0]}';`, '');
    if (children.length) {
      for (const child of children) lines.push(`  readonly ${camel(child.split('.').pop())}: ${pascal(child.split('.').pop())};`);
      lines.push('', '  constructor(transport: Transport) {', '    super(transport);');
      for (const child of children) lines.push(`    this.${camel(child.split('.').pop())} = new ${pascal(child.split('.').pop())}(transport);`);
      lines.push('  }', '');
    }
    own.forEach((op, i) => lines.push(...(i ? [''] : []), ...method(op)));
    lines.push('}');
    classes.push({ resource, lines });
  }
  // Sub-resources first: a class is declared before the parent that makes it.
  classes.sort((a, b) => b.resource.split('.').length - a.resource.split('.').length);
  const text = classes.map((c) => c.lines.join('\n')).join('\n\n');
  const uses = (name) => new RegExp(`\\b${name}\\b`).test(text);
  const imports = [
    ['../core/http.js', ['AuthKind', 'ConditionalRequestOptions', 'RequestOptions', 'Transport'], true],
    ['../core/pagination.js', ['PagedList'], true],
    ['../core/resource.js', ['ApiResource', 'path'], false],
    ['../types.js', ['BodyOf', 'ListParams', 'QueryOf', 'ResponseBody'], true],
  ]
    .map(([from, names, typeOnly]) => [from, names.filter(uses), typeOnly])
    .filter(([, names]) => names.length)
    .map(([from, names, typeOnly]) => `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${from}';`);
  const header = [
    '// Generated from openapi.json by scripts/generate-resources.mjs: do not edit (run `npm run generate`).',
    '// The resource layer: one class per x-sdk-resource, one method per operation. The hand-written core',
    '// (transport, credentials, pagination, errors) is in ../core; extensions are in ../resources.',
    ...imports,
    "import type { components } from './openapi.js';",
    '',
    "type Schemas = components['schemas'];",
    '',
  ];
  return `${[...header, text].join('\n')}\n`;
}

/** Undefined when the committed file is what openapi.json implies, else what differs. */
export function difference() {
  const fresh = render(JSON.parse(readFileSync(specPath, 'utf8')));
  if (!existsSync(target)) return `${relative(sdkRoot, target)} does not exist`;
  const committed = readFileSync(target, 'utf8');
  if (committed === fresh) return undefined;
  const have = committed.split('\n');
  const want = fresh.split('\n');
  const at = want.findIndex((line, i) => line !== have[i]);
  const methods = (lines) => new Set(lines.map((l) => /^ {2}(?:async )?(\w+)\(/.exec(l)?.[1]).filter(Boolean));
  const missing = [...methods(want)].filter((m) => !methods(have).has(m));
  return `${missing.length ? `methods missing: ${missing.join(', ')}; ` : ''}first difference at line ${at + 1}: committed ${JSON.stringify(have[at] ?? '(end)')}, generated ${JSON.stringify(want[at] ?? '(end)')}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const diff = difference();
    if (diff) {
      console.error(`src/generated/resources.ts is out of date with openapi.json (${diff}).\nRun \`npm run generate\` in sdks/typescript.`);
      process.exit(1);
    }
    console.log('src/generated/resources.ts matches openapi.json');
  } else {
    writeFileSync(target, render(JSON.parse(readFileSync(specPath, 'utf8'))));
    console.log(`wrote ${relative(process.cwd(), target)}`);
  }
}
