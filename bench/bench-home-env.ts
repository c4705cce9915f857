import path from 'node:path';

/**
 * The environment a bench's Kioku processes run in: an isolated home (roles, memories, socket
 * folder under `home`), the caller's PATH and zone, UTF-8, nothing else from this shell.
 */
export function benchHomeEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    ROLE_HOME: path.join(home, 'roles'),
    ROLE_MEMORY_HOME: path.join(home, 'memory'),
    XDG_RUNTIME_DIR: home,
    ...extra,
  };
}
