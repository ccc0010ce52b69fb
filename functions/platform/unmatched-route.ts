import { readFile } from 'node:fs/promises';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ApiError } from './errors';
import { problemHandler } from './problem-handler';
import { methodsOf } from '../../catalog/routes';
import { decodeParams, matchPath } from './routing';
import { PROBLEM_DOCS_PATH } from '../../catalog/problems';
import { problemsPage } from './problems-page';

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

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

const problemHandlerOfApi = problemHandler((event) =>
  unmatchedRoute(event.requestContext.http.method.toUpperCase(), event.rawPath),
);

/** docs/problems.md ships beside the bundle (catalog/bundling.ts); run from source, it is the repository's. */
const PROBLEM_DOCS_LOCATIONS = [
  new URL('./problems.md', import.meta.url),
  new URL('../../docs/problems.md', import.meta.url),
];
let problemsHtml: Promise<string> | undefined;

/** The problem types' page, rendered once per container (a failed read is tried again next time). */
export function problemDocsPage(): Promise<string> {
  problemsHtml ??= (async () => {
    for (const location of PROBLEM_DOCS_LOCATIONS) {
      try {
        return problemsPage(await readFile(location, 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    throw new Error('problems.md is missing beside the handler');
  })().catch((error: unknown) => {
    problemsHtml = undefined;
    throw error;
  });
  return problemsHtml;
}

/** Whether a request asks for the problem types' page, where every problem's `type` points. */
export const isProblemDocsRequest = (method: string, rawPath: string): boolean =>
  (method === 'GET' || method === 'HEAD') && (rawPath === PROBLEM_DOCS_PATH || rawPath === `${PROBLEM_DOCS_PATH}/`);

export const handler = async (event: Event, context: Context): Promise<Result> => {
  const method = event.requestContext.http.method.toUpperCase();
  if (!isProblemDocsRequest(method, event.rawPath)) return problemHandlerOfApi(event, context);
  const page = await problemDocsPage();
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'Referrer-Policy': 'no-referrer',
    },
    body: method === 'HEAD' ? '' : page,
  };
};
