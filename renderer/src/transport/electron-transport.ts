import type { KiokuBridge } from '../../../common/ui-contract.js';
import type { Transport } from './transport.js';

declare global {
  interface Window {
    /** Set by the Electron preload (preload/): the contract's bridge, nothing more. */
    kioku?: KiokuBridge;
  }
}

/** In Electron, IPC is always there while the window is: events never "disconnect". */
export function electronTransport(bridge: KiokuBridge): Transport {
  return {
    kind: 'electron',
    invoke: (channel, request) => bridge.invoke(channel, request),
    subscribe: (event, listener) => bridge.subscribe(event, listener),
    onConnectionChange: (listener) => {
      listener(true);
      return () => undefined;
    },
  };
}
