import type { DaemonHandle } from '../../core/hosts/daemon/daemon.js';
import { startWebServer, type WebServer } from '../../core/hosts/ui-api/web-server.js';
import type { CliContext } from '../cli-context.js';

/**
 * `kioku daemon --web`: the headless UI next to the hook socket (X-HEADLESS). The URL, token
 * included, is the one line the command prints on stdout, so a script (or the e2e fixture) can
 * read it; everything else goes to stderr.
 */
export async function startDaemonWeb(ctx: CliContext, daemon: DaemonHandle, port: number): Promise<WebServer> {
  const web = await startWebServer(ctx.config, { logger: ctx.logger, port, status: () => daemon.status() });
  ctx.print(web.url);
  ctx.note('kioku daemon: open the URL above in a browser on this machine; it carries the access token, so keep it to yourself');
  return web;
}
