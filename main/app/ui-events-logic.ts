import { describeError } from '../../common/errors.js';
import type { UiEventMessage } from '../../common/ui-contract.js';
import type { KiokuConfig } from '../core/platform/config/config.js';
import type { Logger } from '../core/platform/config/log.js';
import { buildAppState, type AppStateSource } from '../core/hosts/ui-api/app-state.js';
import { createChangeWatch } from '../core/hosts/ui-api/change-watch.js';

/**
 * The events the window hears (ui-contract.ts UiEvents), from the same sources as the headless
 * server's WebSocket (web-server.ts): the file watch of change-watch.ts, writes made through the
 * UI, and the sleep state. A state is pushed only when it differs from the last one pushed.
 */
export interface UiEventPumpDeps {
  config: KiokuConfig;
  source: AppStateSource;
  logger: Logger;
  send(message: UiEventMessage): void;
  /** setTimeout, injected: several changes in a burst become one push. */
  defer(run: () => void): void;
  watchIntervalMs?: number;
}

export interface UiEventPump {
  /** Something may have changed: push the state if it did. */
  stateChanged(): void;
  /** A window is there to listen (again): it gets the whole state, then changes. */
  start(): void;
  stop(): void;
}

export function createUiEventPump(deps: UiEventPumpDeps): UiEventPump {
  const { config, source, logger } = deps;
  let running = false;
  let pending = false;
  let lastPushed = '';

  const pushState = () => {
    pending = false;
    if (!running) return;
    try {
      const state = buildAppState(config, source);
      const text = JSON.stringify(state);
      if (text === lastPushed) return;
      lastPushed = text;
      deps.send({ event: 'state.changed', data: state });
    } catch (error) {
      logger.warn('app', `cannot compute the app state: ${describeError(error)}`);
    }
  };

  const stateChanged = () => {
    if (!running || pending) return;
    pending = true;
    deps.defer(pushState);
  };

  const watch = createChangeWatch({
    config,
    source,
    ...(deps.watchIntervalMs !== undefined ? { intervalMs: deps.watchIntervalMs } : {}),
    onMemoriesChanged: (roles) => {
      if (running) deps.send({ event: 'memories.changed', data: { roles } });
    },
    onFilesChanged: (change) => {
      if (running) deps.send({ event: 'files.changed', data: change });
    },
    onStateMaybeChanged: stateChanged,
  });

  return {
    stateChanged,
    start() {
      if (running) return;
      running = true;
      lastPushed = '';
      watch.start();
      pushState();
    },
    stop() {
      running = false;
      watch.stop();
    },
  };
}
