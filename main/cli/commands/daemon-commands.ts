import type { Command } from 'commander';
import { KiokuError, describeError } from '../../../common/errors.js';
import { startDaemon, type AnswerHandler, type QueuedHandler } from '../../core/daemon/daemon.js';
import { stopOnSignals } from '../../core/daemon/daemon-signals.js';
import type { CliContext } from '../cli-context.js';
import { createDaemonHookHandlers } from '../../core/hook-handlers/daemon-hook-handlers.js';

/**
 * What the daemon runs for hook events. Injected because the event handlers live elsewhere
 * (main/core/hook-handlers); without them the daemon still serves the socket: answered events get
 * a 'no-handler' error, so each hook computes its answer from the files itself, and unanswered
 * events are spooled and left for a Kioku that can capture.
 */
export interface DaemonCommandDeps {
  handleHook?: AnswerHandler;
  handleQueued?: QueuedHandler;
}

interface DaemonOptions {
  web?: boolean;
  port?: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (Number.isInteger(port) && port >= 1 && port <= 65_535) return port;
  throw new KiokuError('BAD_USAGE', `--port "${value}" must be a whole number from 1 to 65535`, { hint: 'e.g. --port 7421' });
}

function rootVersion(command: Command): string {
  let root = command;
  while (root.parent) root = root.parent;
  return root.version() ?? 'unknown';
}

async function runDaemon(command: Command, options: DaemonOptions, getContext: () => CliContext, deps: DaemonCommandDeps): Promise<void> {
  if (options.port !== undefined) parsePort(options.port);
  const ctx = getContext();
  if (options.web) ctx.note('kioku daemon: the web UI arrives with issue #5; serving the hook socket only for now');
  else if (options.port !== undefined) ctx.note('kioku daemon: --port only matters with --web; ignored');
  // The hook code the hook client's fallback also runs (HOOK-5); tests may inject their own.
  const shared = createDaemonHookHandlers(ctx.config.env, ctx.logger);
  const daemon = startDaemon(ctx.config, {
    handleHook: deps.handleHook ?? shared.handleHook,
    handleQueued: deps.handleQueued ?? shared.handleQueued,
    logger: ctx.logger,
    version: rootVersion(command),
  });
  const signals = stopOnSignals(daemon, ctx.logger);
  try {
    await daemon.ready;
  } catch (error) {
    signals.dispose();
    await daemon.stop();
    throw error;
  }
  ctx.note(`kioku daemon: serving ${ctx.config.paths.memoryHome} on ${daemon.socketPath} (pid ${process.pid}); stop with Ctrl-C or SIGTERM`);
  const signal = await signals.stopped;
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
    .description('serve the hook socket and ingest the spool without the tray app (X-HEADLESS)')
    .option('--web', 'also serve the web UI on loopback (arrives with issue #5)')
    .option('--port <N>', 'web UI port (with --web)')
    .action(async (options: DaemonOptions) => {
      try {
        await runDaemon(command, options, getContext, deps);
      } catch (error) {
        if (error instanceof KiokuError) throw error;
        throw new KiokuError('IO', `kioku daemon failed: ${describeError(error)}`, { cause: error });
      }
    });
}
