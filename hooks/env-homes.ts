import path from 'node:path';
import { roleHomeFromEnv, socketPathFromEnv } from '../main/core/platform/config/paths.js';
import { readStoredSettings, type StoredSettingsRead } from '../main/core/platform/config/stored-settings.js';

/** Where the hook looks before its settings are resolved: the launcher's silent prompt, the client's early request. */
export interface EnvHomes {
  /** `<memory home>/.kioku`. */
  stateDir: string;
  roleHome: string;
  /** The daemon's socket and token, as the client's config names them (paths.ts). */
  socketPath: string;
  tokenFile: string;
}

/**
 * The homes as the client's settings resolve them, when the environment alone decides them: the
 * settings file is found by the environment's memory home (config.ts), and a file that sets
 * either home leaves the answer to the client, which reads it with the schema (undefined here).
 * Shared by the launcher's silent prompt and the client's early request (early-request.ts), which
 * must both look exactly where the settings would (paths.test.ts holds the *FromEnv resolvers to
 * resolvePaths).
 */
export function homesFromEnv(env: NodeJS.ProcessEnv, stored: StoredSettingsRead = readStoredSettings(env)): EnvHomes | undefined {
  if (stored.values.ROLE_HOME != null || stored.values.ROLE_MEMORY_HOME != null) return undefined;
  // The settings file sits in the state dir of the environment's memory home.
  const stateDir = path.dirname(stored.file);
  return {
    stateDir,
    roleHome: roleHomeFromEnv(env),
    // Resolved only when asked: a prompt that calls nobody never needs it.
    get socketPath() {
      return socketPathFromEnv(env);
    },
    tokenFile: path.join(stateDir, 'token'),
  };
}
