import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL } from '../../common/ui-ipc.js';
import { APP_CSP, resolveAppRequest } from './app-protocol-logic.js';
import { decideNavigation, decidePermission, decideWindowOpen } from './window-policy-logic.js';

describe('what the window may do (Electron security checklist)', () => {
  it('stays on our page: hash routes and reloads pass, web links go to the system browser, the rest is dropped', () => {
    expect(decideNavigation(`${APP_ENTRY_URL}#/status`)).toEqual({ allow: true });
    expect(decideNavigation('https://github.com/kioku')).toEqual({ allow: false, openExternally: 'https://github.com/kioku' });
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c', 'kioku://evil/', 'data:text/html,hi', 'vscode://x']) {
      expect(decideNavigation(url)).toEqual({ allow: false });
    }
  });

  it('never opens a new Electron window', () => {
    expect(decideWindowOpen('https://example.com/')).toEqual({ allow: false, openExternally: 'https://example.com/' });
    expect(decideWindowOpen(APP_ENTRY_URL)).toEqual({ allow: false });
    expect(decideWindowOpen('file:///tmp/x.html')).toEqual({ allow: false });
  });

  it('denies every permission', () => {
    expect(['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal'].map(decidePermission)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the kioku:// scheme serving dist/renderer', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-renderer-'));
  const renderer = path.join(root, 'renderer');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>記憶 Kioku</title>');
  fs.writeFileSync(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'not for the page');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('serves the page with the strict CSP and the same security headers as the web server', () => {
    const page = resolveAppRequest(renderer, `${APP_ENTRY_URL}#/roles`);
    expect(page.status).toBe(200);
    expect(page.status === 200 && fs.realpathSync(page.file)).toBe(fs.realpathSync(path.join(renderer, 'index.html')));
    expect(page.headers['Content-Security-Policy']).toBe(APP_CSP);
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toContain('unsafe');
    expect(page.headers['X-Content-Type-Options']).toBe('nosniff');
    const script = resolveAppRequest(renderer, 'kioku://app/assets/index-abc.js');
    expect(script.status === 200 && script.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses other hosts, paths out of the folder, and says when the UI is not built', () => {
    expect(resolveAppRequest(renderer, 'kioku://other/index.html').status).toBe(403);
    // The URL parser already folds %2e%2e away (→ /secret.txt inside the folder: not there).
    expect(resolveAppRequest(renderer, 'kioku://app/%2e%2e/secret.txt').status).toBe(404);
    expect(resolveAppRequest(renderer, 'kioku://app/..%2fsecret.txt').status).toBe(400);
    expect(resolveAppRequest(renderer, 'kioku://app/missing.js').status).toBe(404);
    const unbuilt = resolveAppRequest(undefined, APP_ENTRY_URL);
    expect(unbuilt.status === 503 && unbuilt.text).toContain('npm run build');
  });
});
