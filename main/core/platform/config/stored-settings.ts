import fs from 'node:fs';
import path from 'node:path';
import { memoryHomeFromEnv } from './paths.js';

/**
 * The settings file lives in the state dir of the memory home, which itself may be set in the
 * environment; so the memory home is resolved from env/defaults first, then the file is read.
 * Plain JSON read: the hook hot path must not load conf/electron-store.
 */
/** The settings file as read: its values (none when there is no usable file), and what was wrong with it. */
export interface StoredSettingsRead {
  values: Record<string, unknown>;
  problem?: string;
  file: string;
}

export function readStoredSettings(env: NodeJS.ProcessEnv): StoredSettingsRead {
  const file = path.join(memoryHomeFromEnv(env), '.kioku', 'settings.json');
  // Most homes have no settings file (it is written when a setting is changed), and a read that
  // throws is the first exception of every hook and command: 0.3 ms to make, where asking first
  // is 0.02 (session 28). A file removed in between is caught all the same.
  if (!fs.existsSync(file)) return { values: {}, file };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { values: {}, file };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { values: parsed as Record<string, unknown>, file };
    return { values: {}, file, problem: `settings file ${file} is not a JSON object; ignored it (fix or delete the file)` };
  } catch (error) {
    return {
      values: {},
      file,
      problem: `settings file ${file} is not valid JSON (${(error as Error).message}); ignored it (fix or delete the file)`,
    };
  }
}
