import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (Playwright cannot download its own browser here; ARCHITECTURE.md §Machines). */
export const CHROMIUM = process.env.KIOKU_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser specs cannot run here, or undefined when they can. Printed by the skip. */
export function browserMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install Debian's chromium package, or set KIOKU_E2E_CHROMIUM)`;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A fresh context per test: zh-TW, Taipei time, a desktop window (or the viewport asked for). */
export async function openPage(
  browser: Browser,
  url: string,
  options: { locale?: string; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 860 },
    locale: options.locale ?? 'zh-TW',
    timezoneId: 'Asia/Taipei',
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  (page as Page & { problems?: string[] }).problems = problems;
  await page.goto(url);
  return { context, page };
}

/** Errors the page logged (CSP violations show up here too); a spec expects none. */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

const screenshotDir = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'screenshots');

/** e2e/screenshots/<name>.png: one picture per main view, for the closing note. */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  // Let fonts finish loading so CJK text is not captured in a fallback face.
  // Start from the top: sticky parts (navigation, status strip) would otherwise be caught mid-page.
  await page.evaluate(() => document.fonts.ready.then(() => window.scrollTo(0, 0)));
  // fullPage: false for views whose long lists are virtualized (only rows in view exist to capture).
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true, animations: 'disabled' });
  return file;
}
