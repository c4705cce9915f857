import type { KiokuBridge, Unsubscribe } from '../../../common/ui-contract.js';

/**
 * What the UI talks to: the contract's bridge (invoke + subscribe), whichever way it travels,
 * plus whether pushed events currently arrive (the status strip says so when they do not).
 */
export interface Transport extends KiokuBridge {
  readonly kind: 'electron' | 'http';
  onConnectionChange(listener: (connected: boolean) => void): Unsubscribe;
}
