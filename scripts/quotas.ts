/**
 * AWS quotas that a growing app runs into at deploy time, with the headroom this project keeps below
 * each, and their usage measured on synthesized CloudFormation templates. Pure: the infra tests
 * (test/infra/quotas.test.ts) assert it on a real synth, `npm run ops -- preflight` prints it.
 */

/** A synthesized template: its stack (nested ones by their file name) and its body as written. */
export interface SynthesizedTemplate {
  name: string;
  body: string;
}

export interface Quota {
  /** AWS's limit. */
  limit: number;
  /** The most this app may use: the limit less headroom for later work. */
  max: number;
  unit: string;
  /** What the limit guards, in AWS's words, and what happens past it. */
  guards: string;
}

export const QUOTAS = {
  routesPerHttpApi: {
    limit: 300,
    max: 240,
    unit: 'routes',
    guards: 'API Gateway routes per HTTP API (300, adjustable): past it the API stack fails to deploy',
  },
  indexesPerTable: {
    limit: 20,
    max: 15,
    unit: 'GSIs',
    guards: 'DynamoDB global secondary indexes per table (20, adjustable): past it the table update fails',
  },
  resourcesPerStack: {
    limit: 500,
    max: 350,
    unit: 'resources',
    guards: 'CloudFormation resources per stack (500): past it the deploy is refused',
  },
  templateBytes: {
    limit: 1_048_576,
    max: 800_000,
    unit: 'bytes',
    guards:
      'CloudFormation template body (1 MB from S3, as the CDK uploads it; 51,200 bytes inline): past it the deploy is refused',
  },
  outputsPerStack: {
    limit: 200,
    max: 160,
    unit: 'outputs',
    guards: 'CloudFormation outputs per stack (200): past it the deploy is refused',
  },
  inlinePolicyCharsPerRole: {
    limit: 10_240,
    max: 8_192,
    unit: 'characters',
    guards:
      "IAM inline policies' aggregate size per role (10,240 characters, no whitespace): past it the role update fails",
  },
  environmentBytes: {
    limit: 4_096,
    max: 3_072,
    unit: 'bytes',
    guards: "a Lambda function's environment variables (4 KB in all): past it the function update fails",
  },
  resourcePolicyBytes: {
    limit: 20_480,
    max: 16_384,
    unit: 'bytes',
    guards: "a Lambda function's resource-based policy (20 KB): past it adding a permission fails",
  },
  filtersPerEventSource: {
    limit: 5,
    max: 4,
    unit: 'filters',
    guards:
      'Lambda filter criteria per event source mapping (5): past it the mapping is refused; a stream reader that reacts to more kinds of write merges patterns',
  },
} as const satisfies Record<string, Quota>;

export type QuotaName = keyof typeof QUOTAS;

export interface QuotaUsage {
  quota: QuotaName;
  /** Stack, and the resource within it where the quota is per resource. */
  where: string;
  used: number;
}

/**
 * A reference (Ref, Fn::GetAtt, a stack output) is resolved only at deploy time: counted as this many
 * characters, as long as a long ARN or a generated name, so the estimates err high.
 */
export const REFERENCE_CHARS = 128;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Resource = { Type: string; Properties?: Record<string, Json> };

/** A value as it will read once deployed, with each reference standing for REFERENCE_CHARS characters. */
export function resolvedText(value: Json): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const [key] = Object.keys(value);
  if (key === 'Fn::Join' && Object.keys(value).length === 1) {
    const [separator, parts] = value[key] as [string, Json[]];
    return (Array.isArray(parts) ? parts : [parts]).map(resolvedText).join(separator);
  }
  if (key && (key === 'Ref' || key.startsWith('Fn::'))) return 'x'.repeat(REFERENCE_CHARS);
  return JSON.stringify(value);
}

/** JSON without whitespace, with references resolved as resolvedText estimates them. */
function resolvedJson(value: Json): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const [key] = Object.keys(value);
    if (key && (key === 'Ref' || key.startsWith('Fn::')) && Object.keys(value).length === 1)
      return JSON.stringify(resolvedText(value));
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${resolvedJson(v)}`)
      .join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(resolvedJson).join(',')}]`;
  return JSON.stringify(value);
}

/** The logical id a reference names (a literal name as itself). */
function idOf(value: Json | undefined): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const named = value.Ref ?? (value['Fn::GetAtt'] as Json[] | undefined)?.[0];
    return typeof named === 'string' ? named : JSON.stringify(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Every quota's usage in each template (one row per stack, or per API, table, role and function). */
export function quotaUsage(templates: SynthesizedTemplate[]): QuotaUsage[] {
  const rows: QuotaUsage[] = [];
  for (const { name, body } of templates) {
    const template = JSON.parse(body) as { Resources?: Record<string, Resource>; Outputs?: Record<string, unknown> };
    const resources = Object.entries(template.Resources ?? {});
    const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);
    rows.push({ quota: 'resourcesPerStack', where: name, used: resources.length });
    rows.push({ quota: 'templateBytes', where: name, used: Buffer.byteLength(body) });
    rows.push({ quota: 'outputsPerStack', where: name, used: Object.keys(template.Outputs ?? {}).length });

    const routesPerApi = new Map<string, number>();
    for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
      const api = idOf(route.Properties?.ApiId);
      routesPerApi.set(api, (routesPerApi.get(api) ?? 0) + 1);
    }
    for (const [api, used] of routesPerApi) rows.push({ quota: 'routesPerHttpApi', where: `${name}/${api}`, used });

    for (const [id, table] of [...ofType('AWS::DynamoDB::GlobalTable'), ...ofType('AWS::DynamoDB::Table')]) {
      const indexes = (table.Properties?.GlobalSecondaryIndexes as Json[] | undefined) ?? [];
      rows.push({ quota: 'indexesPerTable', where: `${name}/${id}`, used: indexes.length });
    }

    for (const [id, mapping] of ofType('AWS::Lambda::EventSourceMapping')) {
      const filters = (mapping.Properties?.FilterCriteria as { Filters?: Json[] } | undefined)?.Filters ?? [];
      rows.push({ quota: 'filtersPerEventSource', where: `${name}/${id}`, used: filters.length });
    }

    // Inline policies: AWS::IAM::Policy resources attached to roles, and a role's own Policies.
    const policyChars = new Map<string, number>();
    const addPolicy = (role: string, policyName: Json | undefined, document: Json | undefined) =>
      policyChars.set(
        role,
        (policyChars.get(role) ?? 0) + resolvedText(policyName ?? '').length + resolvedJson(document ?? {}).length,
      );
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const role of (policy.Properties?.Roles as Json[] | undefined) ?? [])
        addPolicy(idOf(role), policy.Properties?.PolicyName, policy.Properties?.PolicyDocument);
    }
    for (const [id, role] of ofType('AWS::IAM::Role')) {
      for (const inline of (role.Properties?.Policies as { PolicyName: Json; PolicyDocument: Json }[] | undefined) ??
        [])
        addPolicy(id, inline.PolicyName, inline.PolicyDocument);
    }
    for (const [role, used] of policyChars)
      rows.push({ quota: 'inlinePolicyCharsPerRole', where: `${name}/${role}`, used });

    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const variables =
        (fn.Properties?.Environment as { Variables?: Record<string, Json> } | undefined)?.Variables ?? {};
      const used = Object.entries(variables).reduce(
        (sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(resolvedText(value)),
        0,
      );
      rows.push({ quota: 'environmentBytes', where: `${name}/${id}`, used });
    }

    // Each AWS::Lambda::Permission is one statement of its function's policy, about as Lambda writes it.
    const policyBytes = new Map<string, number>();
    for (const [id, permission] of ofType('AWS::Lambda::Permission')) {
      const p = permission.Properties ?? {};
      const statement: Json = {
        Sid: id,
        Effect: 'Allow',
        Principal: { Service: p.Principal ?? '' },
        Action: p.Action ?? '',
        Resource: p.FunctionName ?? '',
        ...(p.SourceArn ? { Condition: { ArnLike: { 'AWS:SourceArn': p.SourceArn } } } : {}),
        ...(p.SourceAccount ? { Condition: { StringEquals: { 'AWS:SourceAccount': p.SourceAccount } } } : {}),
      };
      const fn = idOf(p.FunctionName);
      policyBytes.set(fn, (policyBytes.get(fn) ?? 0) + resolvedJson(statement).length + 1);
    }
    // The policy's own envelope: {"Version":"2012-10-17","Id":"default","Statement":[…]}.
    for (const [fn, used] of policyBytes)
      rows.push({ quota: 'resourcePolicyBytes', where: `${name}/${fn}`, used: used + 50 });
  }
  return rows;
}

/** The rows over their quota's `max`, each as a sentence saying which limit it guards. */
export function overQuota(rows: QuotaUsage[]): string[] {
  return rows
    .filter((row) => row.used > QUOTAS[row.quota].max)
    .map((row) => {
      const q = QUOTAS[row.quota];
      return `${row.where}: ${row.used} ${q.unit}, over the ${q.max} kept as headroom below ${q.guards}`;
    });
}

/** The row of each quota with the most use: what a report prints. */
export function highestUsage(rows: QuotaUsage[]): QuotaUsage[] {
  const top = new Map<QuotaName, QuotaUsage>();
  for (const row of rows) if (row.used > (top.get(row.quota)?.used ?? -1)) top.set(row.quota, row);
  return [...top.values()];
}
