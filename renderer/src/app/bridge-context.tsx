import { createContext, useContext, type ReactNode } from 'react';
import type { Transport } from '../transport/transport.js';

const BridgeContext = createContext<Transport | undefined>(undefined);

export function BridgeProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  return <BridgeContext.Provider value={transport}>{children}</BridgeContext.Provider>;
}

/** The one way views reach main: the contract's invoke/subscribe (never fetch or IPC directly). */
export function useBridge(): Transport {
  const transport = useContext(BridgeContext);
  if (!transport) throw new Error('useBridge outside BridgeProvider');
  return transport;
}
