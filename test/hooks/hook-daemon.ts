/**
 * The real daemon for the hook tests and the hooks bench: startDaemon with the shared hook
 * handlers (the code the hook client's fallback runs too), on the memory home of its
 * environment. Stops cleanly on SIGTERM/SIGINT (socket and pid file removed). Readiness is
 * asked of the daemon itself with a `status` request (test/ipc/daemon-kit.ts waitReady).
 */
import fs from 'node:fs';
import { loadConfig } from '../../main/core/config/config.js';
import { createLogger } from '../../main/core/config/log.js';
import { startDaemon } from '../../main/core/daemon/daemon.js';
import { stopOnSignals } from '../../main/core/daemon/daemon-signals.js';
import { createDaemonHookHandlers } from '../../main/core/hook-handlers/daemon-hook-handlers.js';

const config = loadConfig(process.env);
const logger = createLogger({ clock: config.clock, file: `${config.paths.logsDir}/daemon.log`, stderr: true });
const handlers = createDaemonHookHandlers(process.env, logger);
// KIOKU_TEST_ANSWERED_LOG: one line per answered event, so a test can tell the daemon's answer
// from the hook's own fallback (the two print the same bytes, which is the point).
// KIOKU_TEST_REPLY_DELAY_MS: hold each answer that long after it was computed (its files are
// written by then) — a daemon slower than the hook's wait, deterministically.
const answeredLog = process.env.KIOKU_TEST_ANSWERED_LOG;
const replyDelayMs = Number(process.env.KIOKU_TEST_REPLY_DELAY_MS ?? '0');
const handleHook: typeof handlers.handleHook =
  answeredLog || replyDelayMs > 0
    ? async (call) => {
        const reply = await handlers.handleHook(call);
        if (answeredLog) fs.appendFileSync(answeredLog, `${JSON.stringify({ event: call.event, eventId: call.eventId, chars: reply.stdout.length })}\n`);
        if (replyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, replyDelayMs));
        return reply;
      }
    : handlers.handleHook;
const daemon = startDaemon(config, { ...handlers, handleHook, logger, version: 'hook-test' });
const signals = stopOnSignals(daemon, logger);
try {
  await daemon.ready;
} catch (error) {
  process.stderr.write(`hook-daemon: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  signals.dispose();
  await daemon.stop();
  process.exit(1);
}
await signals.stopped;
