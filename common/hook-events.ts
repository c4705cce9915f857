/**
 * One event shape for every assistant (HOOK-3): each adapter in main/core/integrations/assistants/ turns its
 * assistant's hook stdin into a HookEvent, and turns a HookResult back into exactly the stdout
 * that assistant expects. Everything between (context, call-by-name, capture) sees only these.
 */
export const ASSISTANTS = ['claude', 'codex', 'gemini'] as const;
export type AssistantName = (typeof ASSISTANTS)[number];

export const HOOK_EVENTS = [
  'session-start',
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-compact',
  'session-end',
  'subagent-start',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events answered with text for the model; the others are acknowledged at once (ARCHITECTURE). */
export const ANSWERED_EVENTS: ReadonlySet<HookEventName> = new Set(['session-start', 'user-prompt-submit', 'subagent-start']);

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact' | 'fork';

export interface HookEvent {
  assistant: AssistantName;
  event: HookEventName;
  /** The assistant's session id; undefined when the payload had none. */
  sessionId: string | undefined;
  /** Absolute transcript path; undefined when the payload had none (LOCK-3: then no lock). */
  transcriptPath: string | undefined;
  cwd: string;
  /** session-start */
  source?: SessionStartSource;
  /** user-prompt-submit (Gemini: BeforeAgent.prompt) */
  prompt?: string;
  /** stop: the reply just given (the transcript may lag behind the hook) */
  lastAssistantMessage?: string;
  stopHookActive?: boolean;
  /** pre-compact / post-compact */
  trigger?: 'manual' | 'auto';
  /** post-compact: the harness's summary, when any field carried one (CAP-5) */
  compactSummary?: string;
  /** session-end */
  reason?: string;
  /** subagent-start, and any event fired inside a sub-agent */
  agentId?: string;
  agentType?: string;
  /** Model name when the payload gave one. */
  model?: string;
  /** When the hook client received the event (ISO, from the clock). */
  receivedAt: string;
  /**
   * The hook call's id, when the event came through answerHookCall: the daemon and the hook's
   * fallback see the same id for one event, which lets a switch recognise itself (CALL-3).
   */
  eventId?: string;
  /** Field names of the original payload, for diagnostics (CAP-5 logs them); never the values. */
  payloadKeys: string[];
}

/** What a handler decides; the adapter turns it into the assistant's stdout. */
export interface HookResult {
  /** Text for the model (SessionStart, UserPromptSubmit, SubagentStart); empty or undefined: say nothing. */
  additionalContext?: string;
}

/** A user or assistant turn of dialog, for the handoff (CTX-6). */
export interface DialogTurn {
  role: 'user' | 'assistant';
  text: string;
  timestamp?: string;
  /** Byte where the turn's first line starts in its transcript; only when the reader was asked for it. */
  offset?: number;
  /**
   * An assistant turn's speaker: the role that was the session's at that point of the transcript
   * (its role history, issue 19). Absent when not known: the loading role's own, as before.
   */
  speaker?: string;
}
