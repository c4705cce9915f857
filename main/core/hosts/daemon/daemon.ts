import fs from 'node:fs';
import path from 'node:path';
import { KiokuError, describeError } from '../../../../common/errors.js';
import type { DaemonStatus, HookCall, RecallRequest, SleepStatus, SpoolRecord } from '../../../../common/hook-protocol.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { syncWrittenFile, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { startIpcServer, type IpcServer } from '../../platform/ipc/ipc-server.js';
import { writeSpoolRecord } from '../../platform/ipc/spool-writer.js';
import { ensureToken } from '../../platform/ipc/token.js';
import type { RecallAnswer } from '../../platform/ipc/recall-wire.js';
import { createCaptureQueue, type CaptureQueue } from './capture-queue.js';
import { countSpoolPending } from './spool-ingest.js';

export type AnswerHandler = (call: HookCall) => Promise<{ stdout: string }>;
/** Must be idempotent by `record.eventId`: the spool delivers at least once (see spool-ingest.ts). */
export type QueuedHandler = (record: SpoolRecord) => Promise<void>;

export interface DaemonDeps {
  handleHook: AnswerHandler;
  /**
   * null: this host cannot capture yet. Live events are still written to the spool and
   * acknowledged, and the spool is left alone for a host that can — nothing is dropped.
   */
  handleQueued: QueuedHandler | null;
  /** Once the capture queue has handled a burst of events (capture-queue.ts `afterDrained`). */
  afterQueueDrained?: () => void;
  /** Work this host has set itself and not done yet (a role's next load to prepare); shown in status replies. */
  backgroundPending?: () => number;
  logger: Logger;
  /** Shown in status replies. */
  version?: string;
  /** How often the capture queue looks at the spool on its own (ms). */
  spoolPollMs?: number;
  /** The sleep scheduler's state, when this host runs one; shown in status replies (SLEEP-7). */
  sleepStatus?: () => SleepStatus;
  /** `kioku memory recall` asked of this host (index/recall-service.ts); absent: the CLI recalls itself. */
  recall?: (request: RecallRequest) => Promise<RecallAnswer>;
}

export interface DaemonHandle {
  readonly socketPath: string;
  /** Listening, and the spool left from before the start ingested. Rejects when it cannot listen. */
  readonly ready: Promise<void>;
  /** What a `status` request answers (spoolPending is the last count taken). */
  status(): DaemonStatus;
  /** Stop serving, finish the event in hand, remove the socket and pid files. Idempotent. */
  stop(): Promise<void>;
}

export function daemonPidFile(config: KiokuConfig): string {
  return path.join(config.paths.stateDir, 'daemon.pid');
}

/**
 * The host-neutral core of `kioku daemon` and of the Electron app (X-HEADLESS): the hook socket
 * plus the capture queue. Answered events go straight to `handleHook`; the others are written to
 * the spool before they are acknowledged and are handed to `handleQueued` one at a time, in
 * arrival order, after whatever the spool already held.
 */
export function startDaemon(config: KiokuConfig, deps: DaemonDeps): DaemonHandle {
  const { paths } = config;
  const { logger } = deps;
  const startedAt = config.clock.now().toISOString();
  const pidFile = daemonPidFile(config);
  let queue: CaptureQueue | undefined;
  let ready = false;
  let stopping = false;

  const status = (): DaemonStatus => ({
    pid: process.pid,
    startedAt,
    version: deps.version ?? 'unknown',
    ready,
    memoryHome: paths.memoryHome,
    spoolPending: countSpoolPending(paths.spoolDir),
    queue: queue?.stats() ?? { busy: false, handled: 0, failed: 0 },
    background: deps.backgroundPending?.() ?? 0,
    ...(deps.sleepStatus ? { sleep: deps.sleepStatus() } : {}),
  });

  const enqueue = (call: HookCall) => {
    if (stopping) throw new KiokuError('REFUSED', 'the daemon is stopping', { hint: 'spool the event; the next start ingests it' });
    // Written before the reply, made durable right after it (the reply is written in this
    // request's promise chain, before any immediate): the hook waited 0.3–0.5 ms for the two
    // fsyncs on every Stop. A daemon that dies in between loses nothing (the kernel holds the
    // file); only a power cut within that millisecond could, when the assistant's own transcript
    // of the turn, which capture reads, is not on the disk either.
    const file = writeSpoolRecord(paths.spoolDir, call, 'daemon', config.clock.now(), undefined, false);
    setImmediate(() => syncWrittenFile(file));
    queue?.kick();
  };

  const listen = async (): Promise<IpcServer> => {
    const token = ensureToken(paths.tokenFile, (message) => logger.warn('ipc', message));
    fs.mkdirSync(paths.spoolDir, { recursive: true, mode: 0o700 });
    const server = await startIpcServer({
      socketPath: paths.socketPath,
      stateDir: paths.stateDir,
      token,
      logger,
      handlers: { answer: deps.handleHook, enqueue, status, ...(deps.recall ? { recall: deps.recall } : {}) },
    });
    try {
      writeFileAtomicSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
    } catch (error) {
      // Only for people and scripts that want to signal the daemon; the socket is what matters.
      logger.warn('daemon', `cannot write the pid file ${pidFile}: ${describeError(error)}`);
    }
    return server;
  };

  const ingestLeftovers = async () => {
    const handleQueued = deps.handleQueued;
    if (stopping) return;
    if (handleQueued) {
      queue = createCaptureQueue({
        spoolDir: paths.spoolDir,
        handle: (record) => handleQueued(record),
        logger,
        pollMs: deps.spoolPollMs,
        ...(deps.afterQueueDrained ? { afterDrained: deps.afterQueueDrained } : {}),
      });
      await queue.flush();
    } else {
      logger.warn('daemon', `no capture handler: events stay in ${paths.spoolDir} until a Kioku that can capture starts`);
    }
    if (stopping) return;
    ready = true;
    logger.info('daemon', `ready: pid ${process.pid}, socket ${paths.socketPath}`);
  };

  const listening = listen();
  const readyPromise = listening.then(ingestLeftovers);
  // A failed start is reported through `ready`; this keeps it from also being an unhandled rejection.
  readyPromise.catch(() => undefined);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      stopping = true;
      ready = false;
      const server = await listening.catch(() => undefined);
      if (!server) return; // never listened: nothing of ours to clean up
      // Socket first, so nothing new is queued; then the queue, which finishes only the event in
      // hand (a long initial ingest is left for the next start, not waited for).
      await server.close();
      await queue?.stop();
      try {
        if (fs.readFileSync(pidFile, 'utf8').trim() === String(process.pid)) fs.unlinkSync(pidFile);
      } catch {
        /* never written, or a successor's */
      }
      logger.info('daemon', `stopped (pid ${process.pid})`);
    })().catch((error: unknown) => logger.error('daemon', `stop: ${describeError(error)}`));
    return stopped;
  };

  return { socketPath: paths.socketPath, ready: readyPromise, status, stop };
}
