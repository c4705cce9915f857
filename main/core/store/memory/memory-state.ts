import fs from 'node:fs';
import path from 'node:path';
import { formatCompactDateTime, type Clock } from '../../platform/config/clock.js';
import { writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { withLock } from '../../platform/fs/file-lock.js';
import { roleMemoryDir } from './memory-layout.js';

/**
 * `<memory home>/<ID>/state.json` (MEM-3, CAP-6, PRIV-3): last sleep and forget, personal-memory
 * consent, and the relationship counters.
 * Design notes: docs/design-notes.md, "main/core/store/memory/memory-state.ts".
 */
export const CONSENT_VALUES = ['accepted', 'declined', 'unknown'] as const;
export type PersonalMemoryConsent = (typeof CONSENT_VALUES)[number];

export interface MemoryState {
  last_sleep: string | null;
  /** The latest consolidation's summary only; the history is DIGESTS.md (MEM-10). */
  last_sleep_digest: string | null;
  last_forget: string | null;
  personal_memory_consent: PersonalMemoryConsent;
  first_activity: string | null;
  active_days: number;
  total_turns: number;
  /** Counted apart from turns (CAP-6). */
  positive_feedback: number;
  last_activity: string | null;
  /** Keys written by other tools or newer versions, kept verbatim. */
  other: Record<string, unknown>;
}

export interface MemoryStateRead {
  state: MemoryState;
  /** What was wrong with the file, phrased for the user; empty when it was fine or absent. */
  problems: string[];
  /** True when the file exists but is not a JSON object (the next write keeps a copy of it). */
  corrupt: boolean;
}

const TEXT_KEYS = ['last_sleep', 'last_sleep_digest', 'last_forget', 'first_activity', 'last_activity'] as const;
const COUNT_KEYS = ['active_days', 'total_turns', 'positive_feedback'] as const;
const KNOWN = new Set<string>([...TEXT_KEYS, ...COUNT_KEYS, 'personal_memory_consent']);

export function defaultMemoryState(): MemoryState {
  return {
    last_sleep: null,
    last_sleep_digest: null,
    last_forget: null,
    personal_memory_consent: 'unknown',
    first_activity: null,
    active_days: 0,
    total_turns: 0,
    positive_feedback: 0,
    last_activity: null,
    other: {},
  };
}

export function memoryStateFile(memoryHome: string, role: string): string {
  return path.join(roleMemoryDir(memoryHome, role), 'state.json');
}

function fromObject(raw: Record<string, unknown>, file: string, problems: string[]): MemoryState {
  const state = defaultMemoryState();
  const wrongType = (key: string, expected: string) =>
    problems.push(`${file}: "${key}" is ${JSON.stringify(raw[key])}, expected ${expected}; using the default`);
  for (const key of TEXT_KEYS) {
    const value = raw[key];
    if (typeof value === 'string') state[key] = value;
    else if (value !== undefined && value !== null) wrongType(key, 'a text');
  }
  for (const key of COUNT_KEYS) {
    const value = raw[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) state[key] = value;
    // A hand edit may quote a number ("12"); that is still the number the user meant.
    else if (typeof value === 'string' && /^\d+$/.test(value.trim())) state[key] = Number(value.trim());
    else if (value !== undefined && value !== null) wrongType(key, 'a whole number ≥ 0');
  }
  const consent = raw.personal_memory_consent;
  if ((CONSENT_VALUES as readonly unknown[]).includes(consent)) state.personal_memory_consent = consent as PersonalMemoryConsent;
  else if (consent !== undefined && consent !== null) wrongType('personal_memory_consent', CONSENT_VALUES.join(' | '));
  for (const [key, value] of Object.entries(raw)) if (!KNOWN.has(key)) state.other[key] = value;
  return state;
}

export function readMemoryState(memoryHome: string, role: string): MemoryStateRead {
  const file = memoryStateFile(memoryHome, role);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: defaultMemoryState(), problems: [], corrupt: false };
    return {
      state: defaultMemoryState(),
      problems: [`${file} cannot be read (${(error as Error).message}); using defaults`],
      corrupt: false,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return {
      state: defaultMemoryState(),
      problems: [`${file} is not valid JSON (${(error as Error).message}); using defaults`],
      corrupt: true,
    };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { state: defaultMemoryState(), problems: [`${file} is not a JSON object; using defaults`], corrupt: true };
  }
  const problems: string[] = [];
  return { state: fromObject(raw as Record<string, unknown>, file, problems), problems, corrupt: false };
}

export function writeMemoryState(memoryHome: string, role: string, state: MemoryState): void {
  const { other, ...known } = state;
  writeFileAtomicSync(memoryStateFile(memoryHome, role), `${JSON.stringify({ ...known, ...other }, null, 2)}\n`);
}

/**
 * Read, change and write state.json under its own short lock — not the memory lock, which a
 * consolidation holds for minutes while a Stop hook must still be able to count a turn.
 * A corrupt file, or one with values that had to be replaced by defaults, is kept beside it as
 * `state.json.corrupt-<time>` before being rewritten, so no value a person wrote is lost.
 */
export function updateMemoryState(
  memoryHome: string,
  role: string,
  clock: Clock,
  change: (state: MemoryState) => MemoryState,
): MemoryStateRead {
  const file = memoryStateFile(memoryHome, role);
  return withLock(`${file}.lock`, { purpose: 'update state.json', waitMs: 5_000, staleMs: 60_000 }, () => {
    const read = readMemoryState(memoryHome, role);
    const next = change(read.state);
    if (read.corrupt || read.problems.length) fs.copyFileSync(file, `${file}.corrupt-${formatCompactDateTime(clock.now())}`);
    writeMemoryState(memoryHome, role, next);
    return { ...read, state: next };
  });
}

export function setPersonalMemoryConsent(memoryHome: string, role: string, clock: Clock, consent: PersonalMemoryConsent): MemoryStateRead {
  return updateMemoryState(memoryHome, role, clock, (state) => ({ ...state, personal_memory_consent: consent }));
}
