import path from 'node:path';
import type { MemoryType } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { createLogger, type Logger, type LogLevel } from '../../platform/config/log.js';
import { ingestSpool } from '../daemon/spool-ingest.js';
import { createDaemonHookHandlers } from '../daemon/daemon-hook-handlers.js';
import { listMemoryFiles, readMemoryFile } from '../../store/memory/memory-layout.js';

/** One inbox memory, as the demo shows it. */
export interface InboxEntry {
  /** Relative to the demo home. */
  file: string;
  summary: string;
  memoryType: MemoryType;
  priority: number;
  body: string;
}

/** What happened to one spooled event. */
export interface QueuedOutcome {
  event: string;
  sessionId: string;
  /** The reply a Stop event carried, to tell the turns apart. */
  reply?: string;
  /** Inbox files this event added (relative to the demo home). */
  written: string[];
  /** The handler's own log lines for this event (the capture report, in its words). */
  log: string[];
}

/** A logger that keeps the lines it is given, and writes them to the demo home's log as well. */
function collectingLogger(file: Logger, lines: string[]): Logger {
  const log = (stage: string, level: LogLevel, message: string) => {
    lines.push(`[${stage}][${level}] ${message}`);
    file.log(stage, level, message);
  };
  return { log, info: (s, m) => log(s, 'INFO', m), warn: (s, m) => log(s, 'WARN', m), error: (s, m) => log(s, 'ERROR', m) };
}

export function readInbox(config: KiokuConfig, roleId: string, root: string): InboxEntry[] {
  return listMemoryFiles(config.paths.memoryHome, roleId)
    .filter((ref) => ref.category === 'inbox')
    .map((ref) => {
      const memory = readMemoryFile(ref, roleId);
      return {
        file: path.relative(root, ref.path),
        summary: memory.summary,
        memoryType: memory.memory_type,
        priority: memory.priority,
        body: memory.body,
      };
    });
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * What the daemon does with the spool, run here: no daemon runs in a throw-away home, so the hook
 * client spools its Stop and SessionEnd events (HOOK-5), and the daemon's own queue handler
 * (createDaemonHookHandlers) ingests them — capture is the production code, not a copy.
 *
 * `drain()` is called right after each event, as a running daemon would pick it up within
 * moments. Draining once after the whole session would be wrong: a spooled Stop carries only the
 * reply, and the handler takes the user's words from the transcript as it is at ingest time, so
 * every turn would be recorded with the last turn's words.
 */
export class SpoolProcessor {
  handled = 0;
  failed = 0;
  private readonly lines: string[] = [];
  private readonly logger: Logger;
  private readonly handlers: ReturnType<typeof createDaemonHookHandlers>;

  constructor(
    private readonly config: KiokuConfig,
    /** Inbox paths are reported relative to this folder (the demo home). */
    private readonly root: string,
  ) {
    this.logger = collectingLogger(createLogger({ clock: config.clock, file: path.join(config.paths.logsDir, 'kioku.log') }), this.lines);
    this.handlers = createDaemonHookHandlers(config.env, this.logger);
  }

  /**
   * Stop the borrowed daemon handlers' folder watchers and load warmer. Left running, they fired
   * after `--clean` had removed the home and their log line re-created it (a flaky demo test).
   */
  close(): void {
    this.handlers.close();
  }

  inbox(roleId: string): InboxEntry[] {
    return readInbox(this.config, roleId, this.root);
  }

  /** Ingest everything waiting; one outcome per event handled, in arrival order. */
  async drain(roleId: string): Promise<QueuedOutcome[]> {
    const outcomes: QueuedOutcome[] = [];
    const result = await ingestSpool(
      this.config.paths.spoolDir,
      async (record) => {
        const before = new Set(this.inbox(roleId).map((entry) => entry.file));
        const firstLine = this.lines.length;
        await this.handlers.handleQueued(record);
        const payload = (record.payload ?? {}) as Record<string, unknown>;
        const reply = text(payload.last_assistant_message);
        outcomes.push({
          event: record.event,
          sessionId: text(payload.session_id) ?? '',
          ...(reply !== undefined ? { reply } : {}),
          written: this.inbox(roleId)
            .map((entry) => entry.file)
            .filter((file) => !before.has(file)),
          log: this.lines.slice(firstLine),
        });
      },
      { logger: this.logger },
    );
    this.handled += result.handled;
    this.failed += result.failed;
    return outcomes;
  }
}
