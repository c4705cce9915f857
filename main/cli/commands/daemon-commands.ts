import type { Command } from 'commander';
import { KiokuError, describeError } from '../../../common/errors.js';
import type { AnswerHandler, QueuedHandler } from '../../core/hosts/daemon/daemon.js';
import { stopOnSignals } from '../../core/hosts/daemon/daemon-signals.js';
import { startCore } from '../../core/hosts/daemon/start-core.js';
import type { CliContext } from '../cli-context.js';
import type { WebServer } from '../../core/hosts/ui-api/web-server.js';
import { startDaemonWeb } from './daemon-web.js';

/**
 * What the daemon runs for hook events, injected because the handlers live in
 * main/core/hosts/hook-handlers; without them the daemon still serves the socket.
 * Design notes: docs/design-notes.md, "main/cli/commands/daemon-commands.ts".
 */
export interface DaemonCommandDeps {
  handleHook?: AnswerHandler;
  handleQueued?: QueuedHandler;
}

interface DaemonOptions {
  web?: boolean;
  port?: string;
  /** false with --no-schedule. */
  schedule?: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  // 0 asks the system for a free port (the e2e fixture does; the URL printed says which).
  if (value.trim() !== '' && Number.isInteger(port) && port >= 0 && port <= 65_535) return port;
  throw new KiokuError('BAD_USAGE', `--port "${value}" must be a whole number from 0 to 65535 (0: any free port)`, {
    hint: 'e.g. --port 7421',
  });
}

function rootVersion(command: Command): string {
  let root = command;
  while (root.parent) root = root.parent;
  return root.version() ?? 'unknown';
}

async function runDaemon(command: Command, options: DaemonOptions, getContext: () => CliContext, deps: DaemonCommandDeps): Promise<void> {
  const port = options.port === undefined ? 0 : parsePort(options.port);
  const ctx = getContext();
  if (!options.web && options.port !== undefined) ctx.note('kioku daemon: --port only matters with --web; ignored');
  // The sleep schedule (SLEEP-1/2, BRIEF-1, CTX-8); off for tests and benches, which must not
  // have a consolidation move their inbox items behind their back.
  const scheduleOff = options.schedule === false || ctx.config.env.KIOKU_NO_SCHEDULE === '1';
  // The hook socket, the spool, the hook code the fallback also runs (HOOK-5) and the scheduler:
  // the same core the tray app hosts (main/core/hosts/daemon/start-core.ts); tests may inject handlers.
  const core = startCore(ctx.config, {
    logger: ctx.logger,
    version: rootVersion(command),
    schedule: !scheduleOff,
    ...(deps.handleHook ? { handleHook: deps.handleHook } : {}),
    ...(deps.handleQueued ? { handleQueued: deps.handleQueued } : {}),
  });
  const { daemon } = core;
  const signals = stopOnSignals(daemon, ctx.logger);
  let web: WebServer | undefined;
  try {
    await core.ready;
    if (options.web) web = await startDaemonWeb(ctx, daemon, port);
  } catch (error) {
    signals.dispose();
    await core.stop();
    throw error;
  }
  ctx.note(
    `kioku daemon: serving ${ctx.config.paths.memoryHome} on ${daemon.socketPath} (pid ${process.pid}); stop with Ctrl-C or SIGTERM`,
  );
  const signal = await signals.stopped;
  // Nothing new starts; a consolidation in hand stops between two batches (apply is crash-safe).
  await core.stop();
  await web?.close();
  ctx.note(`kioku daemon: stopped (${signal})`);
}

/**
 * `kioku daemon [--web] [--port N]` (CLI.md, X-HEADLESS). Works both ways the CLI registers
 * groups: given the root program it adds a `daemon` command; given the `daemon` group command
 * itself (kioku.ts's GROUPS creates `program.command(name)` and passes it in) it configures that.
 */
export function registerDaemonCommands(parent: Command, getContext: () => CliContext, deps: DaemonCommandDeps = {}): void {
  const command = parent.name() === 'daemon' ? parent : parent.command('daemon');
  command
    .description('serve the hook socket and ingest the spool without the tray app')
    .option('--web', 'also serve the web UI on 127.0.0.1; prints its URL (with the access token) on stdout')
    .option('--port <N>', 'web UI port (with --web; default or 0: a free port)')
    .option('--no-schedule', 'do not run the sleep schedule (naps, nightly sleep, catch-up, brief); also KIOKU_NO_SCHEDULE=1')
    .action(async (options: DaemonOptions) => {
      try {
        await runDaemon(command, options, getContext, deps);
      } catch (error) {
        if (error instanceof KiokuError) throw error;
        throw new KiokuError('IO', `kioku daemon failed: ${describeError(error)}`, { cause: error });
      }
    });
}
