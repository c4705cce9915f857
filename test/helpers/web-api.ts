import fs from 'node:fs';
import path from 'node:path';
import type { UiResult } from '../../common/ui-contract.js';
import { makeTempHome, type TempHome } from './temp-home.js';
import { fixedClock } from '../../main/core/platform/config/clock.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { createLogger } from '../../main/core/platform/config/log.js';
import { startWebServer, type WebServer, type WebServerDeps } from '../../main/core/hosts/ui-api/web-server.js';

/**
 * A real web server on a temp home for the handler tests of the facts, journal, status, settings
 * and mind-map channels: calls go over HTTP with the token, as the UI's do.
 */
export interface TestApi {
  home: TempHome;
  server: WebServer;
  call<T = unknown>(channel: string, body: unknown): Promise<UiResult<T>>;
  value<T>(channel: string, body: unknown): Promise<T>;
  stop(): Promise<void>;
}

export const TEST_TOKEN = 'test-token-0123456789';

export async function startTestApi(
  options: { env?: NodeJS.ProcessEnv; now?: string; deps?: Partial<WebServerDeps>; prepare?: (home: TempHome) => void } = {},
): Promise<TestApi> {
  const home = makeTempHome(options.env ?? {});
  options.prepare?.(home);
  const now = options.now ?? '2026-03-04T10:00:00+08:00';
  const config = loadConfig(home.env, { clock: fixedClock(now) });
  const logger = createLogger({ clock: config.clock });
  const status = () => ({ pid: 42, startedAt: now, version: 'test', memoryHome: config.paths.memoryHome, spoolPending: 0 });
  const server = await startWebServer(config, { logger, status, token: TEST_TOKEN, rendererDir: null, ...options.deps });
  const call = async <T>(channel: string, body: unknown): Promise<UiResult<T>> => {
    const reply = await fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kioku-token': TEST_TOKEN },
      body: JSON.stringify(body),
    });
    return (await reply.json()) as UiResult<T>;
  };
  return {
    home,
    server,
    call,
    value: async <T>(channel: string, body: unknown) => {
      const result = await call<T>(channel, body);
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
      return result.value;
    },
    stop: async () => {
      await server.close();
      home.cleanup();
    },
  };
}

/** Bytes of a file, or null when it does not exist: for "the file was not changed" checks. */
export function bytesOf(file: string): string | null {
  try {
    return fs.readFileSync(file).toString('base64');
  } catch {
    return null;
  }
}

export function linesText(count: number, make: (n: number) => string = (n) => `第 ${n} 行：事實`): string {
  return Array.from({ length: count }, (_, i) => make(i + 1)).join('\n') + '\n';
}

export function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
