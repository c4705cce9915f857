import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_MODEL } from './demo-script.js';

/**
 * A Claude Code session as the hooks see it: the stdin payloads of each event and the transcript
 * JSONL the harness writes beside them (ASSISTANTS.md §Claude Code). Only the fields Claude Code
 * really sends, so the demo proves the adapter and the transcript reader on realistic input.
 */
export class ClaudeSession {
  readonly transcriptPath: string;
  private lastUuid: string | null = null;
  private lines = 0;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    transcriptDir: string,
    /** Turn times start here, a minute apart (KIOKU_NOW makes them reproducible). */
    private readonly startedAt: Date,
  ) {
    this.transcriptPath = path.join(transcriptDir, `${sessionId}.jsonl`);
  }

  private common(hookEventName: string): Record<string, unknown> {
    return { session_id: this.sessionId, transcript_path: this.transcriptPath, cwd: this.cwd, hook_event_name: hookEventName };
  }

  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact'): Record<string, unknown> {
    return { ...this.common('SessionStart'), source, model: DEMO_MODEL };
  }

  userPromptSubmit(prompt: string): Record<string, unknown> {
    return { ...this.common('UserPromptSubmit'), permission_mode: 'default', prompt };
  }

  stop(lastAssistantMessage: string): Record<string, unknown> {
    return { ...this.common('Stop'), permission_mode: 'default', stop_hook_active: false, last_assistant_message: lastAssistantMessage };
  }

  sessionEnd(): Record<string, unknown> {
    return { ...this.common('SessionEnd'), reason: 'prompt_input_exit' };
  }

  /** Deterministic uuids: the n-th line of this session always gets the same one. */
  private uuid(): string {
    const hex = createHash('sha256').update(`${this.sessionId}#${this.lines}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** Append one line, compact JSON as Claude Code writes it (the reader relies on that). */
  private append(type: 'user' | 'assistant', message: Record<string, unknown>, at: Date): void {
    const uuid = this.uuid();
    const line = {
      parentUuid: this.lastUuid,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.9',
      gitBranch: 'main',
      type,
      message,
      uuid,
      timestamp: at.toISOString(),
    };
    fs.appendFileSync(this.transcriptPath, `${JSON.stringify(line)}\n`, { encoding: 'utf8', mode: 0o600 });
    this.lastUuid = uuid;
    this.lines++;
  }

  /** The user's words and the reply of turn `index`, as two transcript lines. Returns the lines written. */
  writeTurn(index: number, user: string, assistant: string): number {
    const at = new Date(this.startedAt.getTime() + (index + 1) * 60_000);
    this.append('user', { role: 'user', content: user }, at);
    this.append(
      'assistant',
      {
        id: `msg_demo_${this.sessionId.slice(-4)}_${index}`,
        type: 'message',
        role: 'assistant',
        model: DEMO_MODEL,
        content: [{ type: 'text', text: assistant }],
      },
      new Date(at.getTime() + 20_000),
    );
    return 2;
  }
}
