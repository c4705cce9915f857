import type { Logger } from '../../platform/config/log.js';
import type { DaemonHandle } from './daemon.js';

export interface SignalWatch {
  /** The signal that stopped the daemon, once it has stopped. */
  readonly stopped: Promise<NodeJS.Signals>;
  /** Remove the handlers (the daemon failed to start and the command is giving up). */
  dispose(): void;
}

/**
 * Stop a daemon cleanly on SIGTERM or SIGINT (socket closed and its file removed,
 * the event in hand finished, the pid file removed). Kept apart from startDaemon so that the
 * Electron app and tests, which own their process's signals, never get these handlers.
 * A second signal while stopping exits at once: the user has decided not to wait.
 */
export function stopOnSignals(daemon: DaemonHandle, logger: Logger): SignalWatch {
  let received: NodeJS.Signals | undefined;
  let resolveStopped: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => (resolveStopped = resolve));
  const dispose = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (received) {
      logger.warn('daemon', `${signal} again while stopping; exiting now`);
      process.exit(1);
    }
    received = signal;
    logger.info('daemon', `${signal}: stopping`);
    void daemon.stop().then(() => {
      dispose();
      resolveStopped(signal);
    });
  }
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { stopped, dispose };
}
