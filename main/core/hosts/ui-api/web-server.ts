import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { KiokuError, describeError } from '../../../../common/errors.js';
import {
  UI_API_PREFIX,
  UI_BODY_LIMITS,
  UI_EVENTS_PATH,
  UI_TOKEN_HEADER,
  isUiChannel,
  uiErr,
  type UiEventName,
  type UiEvents,
  type UiResult,
} from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { buildAppState, type AppStateSource } from './app-state.js';
import { createChangeWatch } from './change-watch.js';
import { createEventHub } from './event-hub.js';
import { findRendererDir } from './renderer-dir.js';
import { lookupStaticFile } from './static-files.js';
import { createUiApi, type UiApiDeps } from './ui-api.js';
import { commonSecurityHeaders, createAccessToken, hostAllowed, htmlSecurityHeaders, originAllowed, tokenMatches } from './web-security.js';

export interface WebServerDeps extends AppStateSource {
  logger: Logger;
  /** 0 or undefined: a free port. */
  port?: number;
  /** The built UI; default: dist/renderer of this package (renderer-dir.ts). null: serve none. */
  rendererDir?: string | null;
  /** Tests pass their own; otherwise a random one per start. */
  token?: string;
  /** How often the files are looked at while a window listens (change-watch.ts). */
  watchIntervalMs?: number;
  /** How `sleep.run` consolidates (ui-api.ts); default: the worker thread. */
  runSleep?: UiApiDeps['runSleep'];
  /** What `status.get` reads of the machine (ui-api.ts); default: the real crontab and processes. */
  statusProbes?: UiApiDeps['statusProbes'];
}

export interface WebServer {
  readonly port: number;
  readonly token: string;
  /** What the user opens: `http://127.0.0.1:PORT/?token=…`. */
  readonly url: string;
  /** Push an event to every window (hosts call this, e.g. the scheduler after a consolidation). */
  publish<E extends UiEventName>(event: E, data: UiEvents[E]): void;
  /** Something changed: recompute the app state and push it if it differs. */
  stateChanged(): void;
  close(): Promise<void>;
}

/** Largest API request body. Role texts are at most a few tens of KB. */
const MAX_BODY_BYTES = 1024 * 1024;

function sendJson(res: http.ServerResponse, status: number, body: UiResult<unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...commonSecurityHeaders() });
  res.end(text);
}

function sendText(res: http.ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...commonSecurityHeaders(), ...extra });
  res.end(text);
}

function readBody(req: http.IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function requestToken(req: http.IncomingMessage): string | undefined {
  const header = req.headers[UI_TOKEN_HEADER];
  if (typeof header === 'string') return header;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

const NOT_BUILT_PAGE =
  'The Kioku UI has not been built, so there is nothing to show here.\n' +
  'Run `npm run build` in the Kioku folder, then restart `kioku daemon --web`.\n' +
  'The API (GET /api/state with the token) works meanwhile.\n';

/**
 * The headless UI (X-HEADLESS, DSH-8): the built renderer, `POST /api/<channel>` for every
 * channel of the UI contract, `GET /api/state`, and the `/api/events` WebSocket, on 127.0.0.1
 * only, behind the token and the Host check of web-security.ts.
 */
export async function startWebServer(config: KiokuConfig, deps: WebServerDeps): Promise<WebServer> {
  const { logger } = deps;
  const token = deps.token ?? createAccessToken();
  const rendererDir = deps.rendererDir === undefined ? findRendererDir() : deps.rendererDir;
  const hub = createEventHub();
  let port = 0;
  let lastPushed = '';
  let pushTimer: NodeJS.Timeout | undefined;

  const pushState = () => {
    pushTimer = undefined;
    if (hub.size === 0) return;
    try {
      const state = buildAppState(config, deps);
      const text = JSON.stringify(state);
      if (text === lastPushed) return;
      lastPushed = text;
      hub.send('state.changed', state);
    } catch (error) {
      logger.warn('web', `cannot compute the app state: ${describeError(error)}`);
    }
  };
  // Several changes in a burst (a role's two files, then `.active`) become one push.
  const stateChanged = () => {
    pushTimer ??= setTimeout(pushState, 60);
  };

  const api = createUiApi(config, { ...deps, status: () => deps.status(), onChanged: stateChanged });
  const watch = createChangeWatch({
    config,
    source: deps,
    intervalMs: deps.watchIntervalMs,
    onMemoriesChanged: (roles) => hub.send('memories.changed', { roles }),
    onFilesChanged: (change) => hub.send('files.changed', change),
    onStateMaybeChanged: stateChanged,
  });
  hub.onPresence((someoneListens) => {
    if (someoneListens) watch.start();
    else {
      watch.stop();
      lastPushed = '';
    }
  });

  const handleApi = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    if (!tokenMatches(token, requestToken(req))) {
      sendJson(
        res,
        401,
        uiErr('UNAUTHORIZED', 'missing or wrong token', 'open the URL `kioku daemon --web` printed; it carries the token'),
      );
      return;
    }
    if (pathname === '/api/state' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, await api.call('state.get', {}));
      return;
    }
    if (req.method !== 'POST') {
      sendJson(
        res,
        405,
        uiErr('BAD_REQUEST', `${req.method} ${pathname} is not supported`, 'API channels are called with POST and a JSON body'),
      );
      return;
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      sendJson(res, 415, uiErr('BAD_REQUEST', 'the request body must be JSON (Content-Type: application/json)'));
      return;
    }
    // A few channels take more (an emoji sheet upload: UI_BODY_LIMITS in the contract).
    const channel = pathname.slice(UI_API_PREFIX.length);
    const maxBytes = (isUiChannel(channel) ? UI_BODY_LIMITS[channel] : undefined) ?? MAX_BODY_BYTES;
    const text = await readBody(req, maxBytes);
    if (text === 'too-large') {
      sendJson(res, 413, uiErr('BAD_REQUEST', `the request body is over ${maxBytes} bytes`));
      return;
    }
    let body: unknown;
    try {
      body = text.trim() ? JSON.parse(text) : {};
    } catch {
      sendJson(res, 400, uiErr('BAD_REQUEST', 'the request body is not valid JSON'));
      return;
    }
    const result = await api.call(pathname.slice(UI_API_PREFIX.length), body);
    const status = result.ok ? 200 : result.error.code === 'UNKNOWN_CHANNEL' ? 404 : result.error.code === 'BAD_REQUEST' ? 400 : 200;
    sendJson(res, status, result);
  };

  const handleStatic = (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method not allowed\n', { Allow: 'GET, HEAD' });
      return;
    }
    if (!rendererDir) {
      sendText(res, 503, NOT_BUILT_PAGE);
      return;
    }
    const found = lookupStaticFile(rendererDir, pathname);
    if (found.kind === 'bad-path') return sendText(res, 400, 'Bad path\n');
    if (found.kind === 'not-found') return sendText(res, 404, 'Not found\n');
    const headers: Record<string, string> = {
      'Content-Type': found.contentType,
      'Cache-Control': 'no-cache',
      ...(found.isHtml ? htmlSecurityHeaders(port) : commonSecurityHeaders()),
    };
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    fs.createReadStream(found.file)
      .on('error', () => res.destroy())
      .pipe(res);
  };

  const server = http.createServer((req, res) => {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      sendText(res, 400, 'Bad request\n');
      return;
    }
    // DNS-rebinding defence: a page on evil.example that resolves to 127.0.0.1 still sends its own Host.
    if (!hostAllowed(req.headers.host, port)) {
      const body = uiErr(
        'FORBIDDEN',
        `host "${String(req.headers.host ?? '').slice(0, 100)}" is not this server`,
        `open http://127.0.0.1:${port}/ instead`,
      );
      if (pathname.startsWith(UI_API_PREFIX)) sendJson(res, 403, body);
      else sendText(res, 403, 'Forbidden: wrong Host header\n');
      return;
    }
    const work = pathname.startsWith(UI_API_PREFIX) ? handleApi(req, res, pathname) : Promise.resolve(handleStatic(req, res, pathname));
    work.catch((error: unknown) => {
      logger.error('web', `${req.method} ${pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendJson(res, 500, uiErr('INTERNAL', 'the request failed', 'details are in the Kioku log'));
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return refuseUpgrade(socket, 400, 'Bad Request');
    }
    if (url.pathname !== UI_EVENTS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (!hostAllowed(req.headers.host, port) || !originAllowed(req.headers.origin, port)) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!tokenMatches(token, url.searchParams.get('token'))) return refuseUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      hub.add(ws);
      // The window starts from the whole state, then hears changes.
      try {
        hub.send('state.changed', buildAppState(config, deps), ws);
      } catch (error) {
        logger.warn('web', `cannot compute the app state: ${describeError(error)}`);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(
          new KiokuError('REFUSED', `port ${deps.port} on 127.0.0.1 is already in use`, {
            hint: 'choose another --port, or leave --port out to get a free one',
          }),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new KiokuError('REFUSED', `not allowed to listen on port ${deps.port}`, {
            hint: 'choose a port above 1024, or leave --port out',
          }),
        );
      } else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(deps.port ?? 0, '127.0.0.1');
  });
  port = (server.address() as AddressInfo).port;
  if (!rendererDir) logger.warn('web', 'no built UI found (dist/renderer); serving the API only');
  logger.info('web', `serving the UI on http://127.0.0.1:${port}/`);

  let closing: Promise<void> | undefined;
  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    publish: (event, data) => hub.send(event, data),
    stateChanged,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (pushTimer) clearTimeout(pushTimer);
        watch.stop();
        hub.closeAll();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
