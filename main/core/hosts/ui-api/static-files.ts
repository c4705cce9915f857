import fs from 'node:fs';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export type StaticLookup =
  { kind: 'file'; file: string; contentType: string; isHtml: boolean } | { kind: 'not-found' } | { kind: 'bad-path' };

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Map a request path to a file under `root` (the built renderer), or refuse. The path is decoded
 * once and must stay inside the root both as written and after symlinks are followed, so neither
 * `/%2e%2e/…`, `/..%2f…`, a backslash nor a link out of the folder reaches another file.
 */
export function lookupStaticFile(root: string, pathname: string): StaticLookup {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'bad-path' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-path' };
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (relative.split('/').some((part) => part === '..')) return { kind: 'bad-path' };
  const realRoot = (() => {
    try {
      return fs.realpathSync(root);
    } catch {
      return undefined;
    }
  })();
  if (!realRoot) return { kind: 'not-found' };
  const candidate = path.resolve(realRoot, relative);
  if (!inside(realRoot, candidate)) return { kind: 'bad-path' };
  let real: string;
  try {
    real = fs.realpathSync(candidate);
  } catch {
    return { kind: 'not-found' };
  }
  if (!inside(realRoot, real)) return { kind: 'bad-path' };
  try {
    if (!fs.statSync(real).isFile()) return { kind: 'not-found' };
  } catch {
    return { kind: 'not-found' };
  }
  const extension = path.extname(real).toLowerCase();
  return { kind: 'file', file: real, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream', isHtml: extension === '.html' };
}
