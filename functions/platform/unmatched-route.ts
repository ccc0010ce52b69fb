import { ApiError } from './errors';
import { problemHandler } from './problem-handler';
import { methodsOf } from '../../catalog/routes';
import { decodeParams, matchPath } from './routing';

export { problemHandler };

/**
 * The API's `$default` route: whatever no route matches. Without it API Gateway answers
 * `{"message":"Not Found"}`; with it a deployed API answers 404 and 405 exactly as the local gateway,
 * which calls this same module. No SDK imports: the bundle stays small and the cold start short.
 */
export function unmatchedRoute(method: string, rawPath: string): ApiError {
  if (!isWellFormed(rawPath)) {
    return new ApiError(400, 'malformed_path', 'The request path is not valid (check its percent-encoding).');
  }
  const matches = matchPath(rawPath);
  const allowed = [...new Set(matches.flatMap((m) => methodsOf(m.route)))];
  if (allowed.length === 0 || allowed.includes(method)) {
    return new ApiError(404, 'route_not_found', `No route matches ${method} ${rawPath}.`);
  }
  const allow = allowed.join(', ');
  return new ApiError(405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, {
    headers: { Allow: allow },
  });
}

/** An absolute path that parses as a URL path and whose percent-encoding decodes. */
function isWellFormed(rawPath: string): boolean {
  if (!rawPath.startsWith('/') || decodeParams({ path: rawPath }) === undefined) return false;
  try {
    return new URL(rawPath, 'http://api.invalid').pathname.length > 0;
  } catch {
    return false;
  }
}

export const handler = problemHandler((event) =>
  unmatchedRoute(event.requestContext.http.method.toUpperCase(), event.rawPath),
);
