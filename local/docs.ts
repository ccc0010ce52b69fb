import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isProblemDocsRequest, problemDocsPage } from '../functions/platform/unmatched-route';

/**
 * The API reference at /docs on the local runtime: Redoc rendering GET /api/v1/openapi.json. Redoc's
 * standalone bundle is served from node_modules, so the page works offline and loads nothing from a CDN.
 */
const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Messaging Platform API reference</title>
  <style>body { margin: 0; }</style>
</head>
<body>
  <redoc spec-url="/api/v1/openapi.json" hide-download-button="false"></redoc>
  <script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/**
 * Answers /docs and its script, and /docs/problems (where problem `type` URLs point, served by the same
 * module as the deployed `$default` route); false for any other path (the API's).
 */
export function serveDocs(req: IncomingMessage, res: ServerResponse, rawPath: string): boolean {
  if (isProblemDocsRequest(req.method ?? 'GET', rawPath)) {
    req.resume();
    problemDocsPage().then(
      (page) => {
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(page)),
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : page);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('docs/problems.md is missing.\n');
      },
    );
    return true;
  }
  if (rawPath !== '/docs' && rawPath !== '/docs/' && rawPath !== '/docs/redoc.standalone.js') return false;
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Method Not Allowed\n');
    return true;
  }
  if (rawPath.endsWith('.js')) {
    readFile(REDOC_BUNDLE).then(
      (script) => {
        res.writeHead(200, {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Content-Length': String(script.length),
          'Cache-Control': 'public, max-age=3600',
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : script);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('The Redoc bundle is missing: run npm install.\n');
      },
    );
    return true;
  }
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(PAGE)),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : PAGE);
  return true;
}
