import { electronTransport } from './electron-transport.js';
import { httpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

const TOKEN_KEY = 'kioku.token';

/**
 * The token of the headless server: from the URL the daemon printed (`?token=…`), then kept in
 * sessionStorage and removed from the address bar, so it is not left in history or bookmarks
 * and survives a reload of this tab only.
 */
function takeToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      /* storage disabled: the token still works for this page */
    }
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Electron's preload bridge when it is there, else the HTTP transport; undefined without a token. */
export function chooseTransport(): Transport | undefined {
  if (window.kioku) return electronTransport(window.kioku);
  const token = takeToken();
  return token ? httpTransport(token) : undefined;
}
