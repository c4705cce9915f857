import http from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, openPage } from './helpers/browser.js';
import { startDaemon, type RunningDaemon } from './helpers/kioku-daemon.js';
import { seedSampleRoles } from './helpers/seed-home.js';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw HTTP: fetch normalises `..` away and will not send a forged Host header. */
function request(
  daemon: RunningDaemon,
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: daemon.port, method, path: rawPath, headers: { Host: `127.0.0.1:${daemon.port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the headless server guards (real kioku daemon --web)', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ prepare: (home) => void seedSampleRoles(home, 2) });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('serves GET /api/state with the token (DSH-8), in the shape of `status --json`', async () => {
    const reply = await request(daemon, 'GET', '/api/state', { 'x-kioku-token': daemon.token });
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as {
      ok: boolean;
      value: { activeRole: string; roles: { id: string }[]; daemon: { running: boolean }; state: string };
    };
    expect(body.ok).toBe(true);
    expect(body.value.activeRole).toBe('ENGINEER01');
    expect(body.value.roles.map((role) => role.id)).toEqual(['ENGINEER01', 'MUSE01']);
    expect(body.value.daemon.running).toBe(true);
    expect(['awake', 'asleep', 'napping', 'consolidating', 'error']).toContain(body.value.state);
  });

  it('refuses a missing or wrong token with 401', async () => {
    const attempts: Record<string, string>[] = [{}, { 'x-kioku-token': 'wrong' }, { Authorization: 'Bearer nope' }];
    for (const headers of attempts) {
      const reply = await request(daemon, 'GET', '/api/state', headers);
      expect(reply.status).toBe(401);
      expect(reply.body).not.toContain('ENGINEER01');
    }
    const post = await request(
      daemon,
      'POST',
      '/api/roles.archive',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ id: 'MUSE01' }),
    );
    expect(post.status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding) with 403, token or not', async () => {
    const reply = await request(daemon, 'GET', '/api/state', { Host: `attacker.example:${daemon.port}`, 'x-kioku-token': daemon.token });
    expect(reply.status).toBe(403);
    expect((await request(daemon, 'GET', '/', { Host: 'attacker.example' })).status).toBe(403);
  });

  it('never serves files outside the UI folder', async () => {
    for (const raw of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/..%2f..%2fpackage.json',
      '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/%2e%2e%5cpackage.json',
    ]) {
      const reply = await request(daemon, 'GET', raw);
      expect([400, 404], raw).toContain(reply.status);
      expect(reply.body, raw).not.toContain('"name": "kioku"');
    }
  });

  it('sends the page with a strict CSP and no inline script', async () => {
    const reply = await request(daemon, 'GET', '/');
    expect(reply.status).toBe(200);
    expect(String(reply.headers['content-security-policy'])).toMatch(/default-src 'self'.*script-src 'self'/);
    expect(String(reply.headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(reply.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  const missing = browserMissing();
  if (missing) console.warn(`e2e web-security (browser part): skipped: ${missing}`);
  describe.skipIf(Boolean(missing))('in the browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('asks for the printed URL when opened without the token', async () => {
      const { context, page } = await openPage(browser, daemon.origin + '/');
      await page.getByRole('heading', { name: '需要存取權杖' }).waitFor();
      await context.close();
    });

    it('takes the token out of the address bar and keeps working after a reload', async () => {
      const { context, page } = await openPage(browser, daemon.url);
      await page.locator('li[data-role-id="ENGINEER01"]').waitFor();
      expect(page.url()).not.toContain('token=');
      await page.reload();
      await page.locator('li[data-role-id="MUSE01"]').waitFor();
      await context.close();
    });
  });
});
