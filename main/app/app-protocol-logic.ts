import { lookupStaticFile } from '../core/hosts/ui-api/static-files.js';
import { commonSecurityHeaders } from '../core/hosts/ui-api/web-security.js';
import { isAppUrl } from './ipc-logic.js';

/**
 * The kioku://app/ scheme serves the built UI (dist/renderer) to the window, with the same
 * security headers the headless server sends (main/core/hosts/ui-api/web-security.ts) and the same path
 * checks (static-files.ts). Only the WebSocket line of the CSP differs: in Electron the page talks
 * to main through the preload, never over the network, so it may connect nowhere but to itself.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export type AppResponse =
  | { status: 200; file: string; headers: Record<string, string> }
  | { status: 400 | 403 | 404 | 503; text: string; headers: Record<string, string> };

const NOT_BUILT =
  'The Kioku UI has not been built, so the window has nothing to show.\n' +
  'Run `npm run build` in the Kioku folder, then start the app again.\n';

function textResponse(status: 400 | 403 | 404 | 503, text: string): AppResponse {
  return {
    status,
    text,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...commonSecurityHeaders() },
  };
}

/** Map one kioku:// request to a file of the built UI, or an error answer. */
export function resolveAppRequest(rendererDir: string | undefined, requestUrl: string): AppResponse {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return textResponse(400, 'Bad request\n');
  }
  if (!isAppUrl(requestUrl)) return textResponse(403, 'Forbidden\n');
  if (!rendererDir) return textResponse(503, NOT_BUILT);
  const found = lookupStaticFile(rendererDir, url.pathname);
  if (found.kind === 'bad-path') return textResponse(400, 'Bad path\n');
  if (found.kind === 'not-found') return textResponse(404, 'Not found\n');
  return {
    status: 200,
    file: found.file,
    headers: {
      'Content-Type': found.contentType,
      'Cache-Control': 'no-cache',
      ...commonSecurityHeaders(),
      ...(found.isHtml ? { 'Content-Security-Policy': APP_CSP } : {}),
    },
  };
}
