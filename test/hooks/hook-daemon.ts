/**
 * The real daemon for the hook tests and the hooks bench: startDaemon with the shared hook
 * handlers (the code the hook client's fallback runs too), on the memory home of its
 * environment. Stops cleanly on SIGTERM/SIGINT (socket and pid file removed). Readiness is
 * asked of the daemon itself with a `status` request (test/ipc/daemon-kit.ts waitReady).
 */
import fs from 'node:fs';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { createLogger } from '../../main/core/platform/config/log.js';
import { startDaemon } from '../../main/core/hosts/daemon/daemon.js';
import { stopOnSignals } from '../../main/core/hosts/daemon/daemon-signals.js';
import { createDaemonHookHandlers } from '../../main/core/hosts/daemon/daemon-hook-handlers.js';

const config = loadConfig(process.env);
const logger = createLogger({ clock: config.clock, file: `${config.paths.logsDir}/daemon.log`, stderr: true });
const handlers = createDaemonHookHandlers(process.env, logger);
// KIOKU_TEST_ANSWERED_LOG: one line per answered event, so a test can tell the daemon's answer
// from the hook's own fallback (the two print the same bytes, which is the point).
// KIOKU_TEST_REPLY_GATE: a daemon slower than the hook's wait, by order rather than by time. Each
// answer is computed (its files are written), then held until this file exists; the test creates
// it only after the hook has exited. A hook that sent KIOKU_TEST_HOOK_PID (its own pid, in the
// env it forwards) is stopped (SIGSTOP) from the moment its request arrives until the answer's
// files are written, so its wait cannot run out before the daemon has done the work, however
// slow the machine. KIOKU_TEST_REPLIED_LOG: one line per reply actually sent. A held reply is sent
// anyway after GATE_DEADLINE_MS, so a daemon left alone never holds a connection forever.
const answeredLog = process.env.KIOKU_TEST_ANSWERED_LOG;
// KIOKU_TEST_QUEUED_LOG: one line per queued event handled (Stop, PreCompact…), with its event id.
const queuedLog = process.env.KIOKU_TEST_QUEUED_LOG;
const repliedLog = process.env.KIOKU_TEST_REPLIED_LOG;
const replyGate = process.env.KIOKU_TEST_REPLY_GATE;
const GATE_DEADLINE_MS = 120_000;
const signalHook = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    /* the hook is gone */
  }
};
async function gateOpen(): Promise<void> {
  const deadline = Date.now() + GATE_DEADLINE_MS;
  while (replyGate && !fs.existsSync(replyGate) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
const handleHook: typeof handlers.handleHook =
  answeredLog || repliedLog || replyGate
    ? async (call) => {
        const hookPid = Number(call.env?.KIOKU_TEST_HOOK_PID ?? 0);
        if (replyGate && hookPid > 0) signalHook(hookPid, 'SIGSTOP');
        let reply: Awaited<ReturnType<typeof handlers.handleHook>>;
        try {
          reply = await handlers.handleHook(call);
          if (answeredLog)
            fs.appendFileSync(answeredLog, `${JSON.stringify({ event: call.event, eventId: call.eventId, chars: reply.stdout.length })}\n`);
        } finally {
          if (replyGate && hookPid > 0) signalHook(hookPid, 'SIGCONT');
        }
        await gateOpen();
        if (repliedLog) fs.appendFileSync(repliedLog, `${JSON.stringify({ event: call.event, eventId: call.eventId })}\n`);
        return reply;
      }
    : handlers.handleHook;
const handleQueued: typeof handlers.handleQueued = queuedLog
  ? async (record) => {
      fs.appendFileSync(queuedLog, `${JSON.stringify({ event: record.event, eventId: record.eventId })}\n`);
      return handlers.handleQueued(record);
    }
  : handlers.handleQueued;
const daemon = startDaemon(config, { ...handlers, handleHook, handleQueued, logger, version: 'hook-test' });
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
