import { API_PREFIXES, ROUTES, type RouteDef } from '../../catalog/routes';

/**
 * Path matching over the route table, as API Gateway matches `{param}` segments. Shared by the local
 * gateway (dispatch) and the `$default` route (404 or 405 with Allow), so both always agree.
 */
interface CompiledPattern {
  route: RouteDef;
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteDef): CompiledPattern {
  const params: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), params };
}

// API Gateway picks the most specific route: a literal segment wins over a `{param}` (bookings/availability).
const COMPILED = ROUTES.map(compile).sort((a, b) => a.params.length - b.params.length);

/** A path's first segment (`conversations` in `/conversations/{id}`). */
const firstSegment = (path: string) => path.split('/', 2)[1] ?? '';
/** Routes whose first segment holds a `{param}`: any path may match them. */
const PARAM_FIRST = COMPILED.filter((c) => firstSegment(c.route.path).includes('{'));
/**
 * The routes a path can match, by its first segment, in COMPILED's order: the gateway tries a dozen
 * patterns for a request rather than every route's.
 */
const BY_FIRST_SEGMENT = new Map<string, CompiledPattern[]>();
for (const c of COMPILED) {
  const segment = firstSegment(c.route.path);
  if (segment.includes('{') || BY_FIRST_SEGMENT.has(segment)) continue;
  BY_FIRST_SEGMENT.set(
    segment,
    COMPILED.filter((other) => firstSegment(other.route.path) === segment || PARAM_FIRST.includes(other)),
  );
}

export interface PathMatch {
  route: RouteDef;
  /** Path parameters as they appear in the path, still percent-encoded. */
  rawParams: Record<string, string>;
}

/** Every route whose path matches, whatever its method; none when the path has no API prefix. */
export function matchPath(rawPath: string): PathMatch[] {
  const prefix = API_PREFIXES.find((p) => rawPath === p || rawPath.startsWith(`${p}/`));
  if (!prefix) return [];
  const path = rawPath.slice(prefix.length);
  const matches: PathMatch[] = [];
  for (const { route, pattern, params } of BY_FIRST_SEGMENT.get(firstSegment(path)) ?? PARAM_FIRST) {
    const m = pattern.exec(path);
    if (m) matches.push({ route, rawParams: Object.fromEntries(params.map((name, i) => [name, m[i + 1] ?? ''])) });
  }
  return matches;
}

/** Decoded path parameters, or undefined when one is not valid percent-encoding. */
export function decodeParams(rawParams: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(rawParams).map(([k, v]) => [k, decodeURIComponent(v)]));
  } catch {
    return undefined;
  }
}
