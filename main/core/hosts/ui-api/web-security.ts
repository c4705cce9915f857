import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The headless UI's guards (X-HEADLESS: "on loopback with a token"). Loopback alone is not
 * enough: any web page the user visits can make the browser send requests to 127.0.0.1, and a
 * DNS-rebinding page can even read the answers. So every API call needs the random token printed
 * in the URL, every request must name our own host and port, and the WebSocket also checks Origin.
 */

/** 256 random bits, URL-safe: printed once on stdout in the URL the user opens. */
export function createAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison, so the token cannot be guessed a character at a time. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Host values a loopback browser sends for us. A rebinding attacker's page sends its own name. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase());
}

/**
 * Browsers always send Origin on WebSocket handshakes; a page on another site would show its
 * own. Clients that are not browsers send none and still need the token.
 */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((host) => origin.toLowerCase() === `http://${host}`);
}

/**
 * For the HTML page: scripts and styles from our own origin only (Vite builds no inline
 * script), the WebSocket back to us, images from us or data: URLs (emoji previews), no frames,
 * no plugins, no <base> tricks, and no Referer that could carry the token elsewhere.
 */
export function htmlSecurityHeaders(port: number): Record<string, string> {
  const sockets = allowedHosts(port)
    .map((host) => `ws://${host}`)
    .join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src 'self' ${sockets}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    ...commonSecurityHeaders(),
  };
}

/** On every answer. */
export function commonSecurityHeaders(): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
