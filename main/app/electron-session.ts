import fs from 'node:fs';
import { protocol, type Session } from 'electron';
import { APP_SCHEME } from '../../common/ui-ipc.js';
import type { Logger } from '../core/platform/config/log.js';
import { resolveAppRequest } from './app-protocol-logic.js';
import { decidePermission } from './window-policy-logic.js';

/**
 * Before `ready`: kioku:// behaves like https for the page (an origin of its own, fetch, CSP,
 * secure context) — the rest of the checklist needs that. Called at the top of main.ts.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** After `ready`: serve the UI, deny every permission, and let no request leave for the network. */
export function secureSession(session: Session, rendererDir: string | undefined, logger: Logger): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = resolveAppRequest(rendererDir, request.url);
    if (answer.status !== 200) return new Response(answer.text, { status: answer.status, headers: answer.headers });
    return new Response(await fs.promises.readFile(answer.file), { status: 200, headers: answer.headers });
  });
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(decidePermission(permission)));
  session.setPermissionCheckHandler((_contents, permission) => decidePermission(permission));
  // The CSP already confines the page; this also covers anything the CSP does not govern.
  session.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (details, callback) => {
    logger.warn('app', `blocked a network request from the window: ${details.url.slice(0, 200)}`);
    callback({ cancel: true });
  });
}
