import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, createFileExclusiveSync, writeFileAtomicSync } from '../fs/atomic-write.js';
import { readToken } from './token-file.js';

export { readToken };

/**
 * The shared secret of the hook socket (APP-3: "only the user can connect"). The socket's folder
 * is the user's alone (socket-folder.ts), but macOS ignores socket file modes and XDG_RUNTIME_DIR
 * is the system's, so the token — readable by the owner only — is what keeps everyone else's
 * requests out. The server creates it; clients only read it. Node built-ins only: the hook reads it.
 */

function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Make the state dir private; a folder someone loosened is tightened again (not on Windows). */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return;
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * What the server does at start: reuse the token (clients that read it before a restart keep
 * working), or create one. A token file others could read, or one that is not a token, is
 * replaced: it may have leaked, and it costs nothing to issue a new one.
 */
export function ensureToken(tokenFile: string, warn: (message: string) => void = () => {}): string {
  ensurePrivateDir(path.dirname(tokenFile));
  const existing = readToken(tokenFile);
  if (existing !== undefined) {
    const mode = process.platform === 'win32' ? PRIVATE_FILE_MODE : fs.statSync(tokenFile).mode & 0o777;
    if (mode === PRIVATE_FILE_MODE) return existing;
    warn(`token file ${tokenFile} had mode ${mode.toString(8)} (readable by others); issued a new token with mode 600`);
  } else if (fs.existsSync(tokenFile)) {
    warn(`token file ${tokenFile} did not hold a token; issued a new one`);
  }
  const token = newToken();
  if (existing === undefined && !fs.existsSync(tokenFile)) {
    // Two servers starting at once must end up with the same token: the first creation wins.
    if (createFileExclusiveSync(tokenFile, token, { mode: PRIVATE_FILE_MODE })) return token;
    const winner = readToken(tokenFile);
    if (winner !== undefined) return winner;
  }
  writeFileAtomicSync(tokenFile, token, { mode: PRIVATE_FILE_MODE });
  const written = readToken(tokenFile);
  if (written === undefined) {
    throw new KiokuError('IO', `cannot write the IPC token to ${tokenFile}`, {
      path: tokenFile,
      hint: `check that ${path.dirname(tokenFile)} is writable by you`,
    });
  }
  return written;
}

/**
 * Constant-time comparison. Both sides are hashed first so that the lengths match (timingSafeEqual
 * needs that) without leaking the real token's length through an early return.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, digestOf(expected)) && given.length === expected.length;
}

/** The daemon's own token's digest, made once: it compares every request against the same token. */
let expectedDigest: { token: string; digest: Buffer } | undefined;
function digestOf(token: string): Buffer {
  if (expectedDigest?.token !== token) expectedDigest = { token, digest: createHash('sha256').update(token).digest() };
  return expectedDigest.digest;
}
