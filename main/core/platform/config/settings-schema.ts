import { canonicalTimeZone, explainTimeZone } from './time-zone.js';

/**
 * Every ROLE_* variable of HOOK-4 (and Kioku's own KIOKU_* knobs) with its type and
 * default, in one table. Environment wins over the settings file (APP-4); a value that does not
 * parse is reported and the default used, so a typo never stops a hook.
 */
export type SettingKind = 'int' | 'bool' | 'string' | 'time' | 'path' | 'tristate';

export interface SettingSpec {
  kind: SettingKind;
  default: string | number | boolean | null;
  /** One line for `kioku status`, the settings page and docs. */
  description: string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** A check beyond the kind's own (a string that must name something real); the reason when it fails. */
  validate?: (text: string) => string | undefined;
  /** The spelling to keep of a value `validate` accepted (a zone name in ICU's letter case); undefined: as given. */
  canonical?: (text: string) => string | undefined;
}

export const SETTINGS = {
  ROLE_ENABLED: { kind: 'tristate', default: null, description: '1 force on, 0 off; unset: on when a role resolves' },
  ROLE_NAME: { kind: 'string', default: null, description: 'role ID for this environment; overrides .active' },
  ROLE_HOME: { kind: 'path', default: '~/.roles', description: 'role definitions folder' },
  ROLE_MEMORY_HOME: { kind: 'path', default: '~/.memory', description: 'memory root folder' },
  ROLE_SLEEP_START: { kind: 'time', default: '22:00', description: 'sleep window start (HH:MM, local time)' },
  ROLE_SLEEP_END: { kind: 'time', default: '06:00', description: 'sleep window end (HH:MM, local time)' },
  ROLE_TIMEZONE: {
    kind: 'string',
    default: null,
    description:
      "the user's time zone (IANA name, e.g. Asia/Taipei) for the sleep window, the brief and every local time; unset: TZ, else the machine's",
    validate: explainTimeZone,
    canonical: canonicalTimeZone,
  },
  ROLE_CLI: {
    kind: 'string',
    default: 'auto',
    description: 'planner/condenser CLI: auto, claude, codex, gemini, agy, opencode, copilot, local',
    choices: ['auto', 'claude', 'codex', 'gemini', 'agy', 'opencode', 'copilot', 'local'],
  },
  ROLE_MODEL: { kind: 'string', default: 'claude-haiku-4-5-20251001', description: 'model for the claude CLI' },
  ROLE_LOAD_LIMIT: { kind: 'int', default: 4000, min: 0, description: 'long-term memory characters injected at session start' },
  ROLE_LOAD_FULL_MIN_PRIORITY: { kind: 'int', default: 4, min: 1, max: 5, description: 'lowest priority loaded in full text' },
  ROLE_LOAD_DIGEST_MIN_PRIORITY: { kind: 'int', default: 3, min: 1, max: 5, description: 'lowest priority loaded as summary' },
  ROLE_LOAD_INBOX_LIMIT: { kind: 'int', default: 3600, min: 0, description: 'inbox characters injected (own budget)' },
  ROLE_LOAD_INBOX_COUNT: { kind: 'int', default: 10, min: 0, description: 'inbox items injected, newest first' },
  ROLE_LOAD_BONDS_LIMIT: { kind: 'int', default: 1200, min: 0, description: 'BONDS.md characters injected (own budget)' },
  ROLE_LOAD_BONDS_COUNT: { kind: 'int', default: 15, min: 0, description: 'bonds injected, newest first' },
  ROLE_LOAD_DIALOG_TURNS: { kind: 'int', default: 8, min: 0, description: 'recent verbatim turns injected' },
  ROLE_LOAD_DIALOG_LIMIT: { kind: 'int', default: 4000, min: 0, description: 'recent dialog characters injected (own budget)' },
  ROLE_CAPTURE_ENABLED: { kind: 'bool', default: true, description: 'capture turns at Stop' },
  ROLE_CAPTURE_MIN_CHARS: { kind: 'int', default: 240, min: 0, description: 'shorter turns without a memory cue are not kept' },
  ROLE_CAPTURE_TIMEOUT: { kind: 'int', default: 25, min: 1, description: 'condenser timeout (seconds)' },
  ROLE_SLEEP_TIMEOUT: { kind: 'int', default: 180, min: 1, description: 'one consolidation run timeout (seconds)' },
  ROLE_SLEEP_COLLECT_LIMIT: { kind: 'int', default: 12000, min: 500, description: 'material characters per consolidation batch' },
  // SLEEP-5 (newer) sets 4 and halves 4 → 2 → 1; its older table said 12.
  ROLE_SLEEP_BATCH: { kind: 'int', default: 4, min: 1, max: 60, description: 'inbox items per consolidation batch' },
  ROLE_SLEEP_EXISTING_LIMIT: { kind: 'int', default: 120, min: 0, description: 'existing memories listed in the material' },
  ROLE_SLEEP_OUTPUT_LIMIT: { kind: 'int', default: 8000, min: 500, description: 'planner output characters accepted' },
  ROLE_SLEEP_REMIND_INBOX: { kind: 'int', default: 12, min: 1, description: 'inbox size at which the role asks to sleep' },
  ROLE_NAP_ENABLED: { kind: 'bool', default: true, description: 'nap when idle' },
  ROLE_NAP_IDLE_MINUTES: { kind: 'int', default: 45, min: 1, description: 'idle minutes before a nap' },
  ROLE_NAP_MIN_INBOX: { kind: 'int', default: 3, min: 1, description: 'inbox items needed for a nap' },
  ROLE_NAP_INTERVAL_MINUTES: { kind: 'int', default: 10, min: 1, max: 59, description: 'nap check interval (minutes)' },
  ROLE_SLEEP_ALL_ROLES: { kind: 'bool', default: true, description: 'the schedule serves every role' },
  ROLE_BRIEF_ENABLED: { kind: 'bool', default: true, description: 'morning brief' },
  ROLE_BRIEF_TIMEOUT: { kind: 'int', default: 30, min: 1, description: 'each check script timeout (seconds)' },
  ROLE_BRIEF_EACH_LIMIT: { kind: 'int', default: 600, min: 0, description: 'characters kept from each check script' },
  ROLE_BRIEF_LIMIT: { kind: 'int', default: 2000, min: 0, description: 'characters kept from all check scripts' },
  ROLE_SINGLE_INSTANCE: { kind: 'bool', default: true, description: 'one live session per role' },
  ROLE_INSTANCE_IDLE_MINUTES: { kind: 'int', default: 30, min: 1, description: 'idle transcript minutes before a lock is taken over' },
  ROLE_SKIP_INSTANCE_LOCK: { kind: 'bool', default: false, description: 'skip the role lock and write none (sub-agents)' },
  ROLE_CALL_ENABLED: { kind: 'bool', default: true, description: 'switch role when called by name' },
  ROLE_CALL_MARKER_ONLY: { kind: 'bool', default: false, description: 'only @name switches' },
  ROLE_SCOPE: { kind: 'string', default: null, description: 'colon-separated path prefixes; sessions elsewhere are ignored' },
  ROLE_ERRLOG: { kind: 'path', default: null, description: 'extra file for error messages' },
  KIOKU_SYNC_INTERVAL_MINUTES: {
    kind: 'int',
    default: 30,
    min: 0,
    max: 1440,
    description: 'sync memories through git every N idle minutes (0: only at start and after sleep)',
  },
  KIOKU_SYNC_LEASE_MINUTES: {
    kind: 'int',
    default: 120,
    min: 5,
    max: 1440,
    description: 'how long a machine keeps the right to sleep a role after its last run',
  },
  KIOKU_HOOK_OUTPUT_LIMIT: {
    kind: 'int',
    default: 9800,
    min: 1000,
    max: 10000,
    description: 'largest hook output (Claude Code cuts at 10,000)',
  },
  KIOKU_NOW: { kind: 'string', default: null, description: 'ISO 8601 time replacing the clock (tests)' },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

type ValueOf<S extends SettingSpec> = S['kind'] extends 'int'
  ? number
  : S['kind'] extends 'bool'
    ? boolean
    : S['kind'] extends 'tristate'
      ? boolean | null
      : S['default'] extends null
        ? string | null
        : string;

export type Settings = { -readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };
