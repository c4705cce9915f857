import { APP_HOST, APP_SCHEME } from '../../common/ui-ipc.js';
import { parseUiRequest, uiErr, type UiChannel, type UiResult } from '../../common/ui-contract.js';
import type { Logger } from '../core/platform/config/log.js';
import type { UiApi } from '../core/hosts/ui-api/ui-api.js';

/**
 * What every IPC call from a window goes through before it reaches the handlers the web server
 * uses too (main/core/hosts/ui-api/ui-api.ts). Electron-free, so it is tested; main/app/electron-ipc.ts
 * only registers it for each channel of the contract.
 */
export interface IpcSender {
  /** event.senderFrame.url; undefined when the frame is gone. */
  url: string | undefined;
  /** Only the top frame of our page may call: a frame inside it (there should be none) may not. */
  isMainFrame: boolean;
}

/** Our page, and nothing else: `kioku://app/…` (a file:// or http page, or a look-alike host, is refused). */
export function isAppUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    // Not `origin`: Node's URL gives "null" for a scheme it does not know, as kioku: is to it.
    const parsed = new URL(url);
    return (
      parsed.protocol === `${APP_SCHEME}:` &&
      parsed.host.toLowerCase() === APP_HOST &&
      parsed.username === '' &&
      parsed.password === '' &&
      parsed.port === ''
    );
  } catch {
    return false;
  }
}

export type IpcDispatcher = (channel: UiChannel, sender: IpcSender, payload: unknown) => Promise<UiResult<unknown>>;

export function createIpcDispatcher(api: UiApi, logger: Logger): IpcDispatcher {
  return async (channel, sender, payload) => {
    if (!sender.isMainFrame || !isAppUrl(sender.url)) {
      logger.warn(
        'app',
        `refused the IPC call ${channel} from ${String(sender.url ?? '(no frame)').slice(0, 200)}${sender.isMainFrame ? '' : ' (a sub-frame)'}`,
      );
      return uiErr('FORBIDDEN', `${channel} may only be called by the Kioku window`);
    }
    // Validated here with the contract's schema (api.call validates again: it is the web server's entry too).
    const parsed = parseUiRequest(channel, payload);
    if (!parsed.ok) return parsed;
    return api.call(channel, parsed.value);
  };
}
