import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { PRIVATE_DIR_MODE } from '../../platform/fs/atomic-write.js';
import { parseCondensedAnswer, unwrapCliOutput } from './cli-answer.js';
import { chooseCondenserCli, cliInvocation, type CondenserCli } from '../llm-cli/cli-commands.js';
import { buildCapturePrompt, findPromptFile } from './capture-prompt.js';
import { CondenseFailure, type CondensedMemory, type CondenseOutcome, type Condenser, type TurnInput } from './capture-types.js';
import { runHeadless } from '../llm-cli/run-headless.js';

/**
 * CAP-2 through an LLM CLI (ROLE_CLI): the prompt of resources/prompts/capture.zh-TW.md, one
 * headless run, the answer validated with zod.
 * Design notes: docs/design-notes.md, "main/core/engine/capture/cli-condenser.ts".
 */
export interface CliCondenserOptions {
  cli: CondenserCli;
  /** Absolute path of the executable. */
  command: string;
  /** The daemon's environment; the run gets a copy with our hooks switched off. */
  env: NodeJS.ProcessEnv;
  /** An empty scratch folder: the CLI must not pick up a project's instructions or files. */
  cwd: string;
  timeoutMs: number;
  model: string | null;
  /** The prompt template file (default: resources/prompts/capture.zh-TW.md). */
  promptFile?: string;
}

/**
 * The environment of a condenser run. ROLE_ENABLED=0 makes every Kioku hook a no-op and
 * KIOKU_HOOK_DISABLED=1 tells the hook client to exit before even connecting, so the CLI's own
 * Stop hook cannot capture the condensing as a turn (which would condense it again, forever).
 */
export function condenserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ROLE_ENABLED: '0', KIOKU_HOOK_DISABLED: '1' };
}

export class CliCondenser implements Condenser {
  readonly name: string;

  constructor(private readonly options: CliCondenserOptions) {
    this.name = `cli:${options.cli}`;
  }

  /** The same as condense, with the failure as a value. */
  async attempt(input: TurnInput, signal?: AbortSignal): Promise<CondenseOutcome> {
    try {
      return { ok: true, memories: await this.run(input, signal) };
    } catch (error) {
      const failure = error instanceof CondenseFailure ? error : new CondenseFailure('spawn-error', (error as Error).message);
      return { ok: false, failure };
    }
  }

  async condense(input: TurnInput, signal?: AbortSignal): Promise<CondensedMemory[]> {
    const outcome = await this.attempt(input, signal);
    if (!outcome.ok) throw outcome.failure;
    return outcome.memories;
  }

  private async run(input: TurnInput, signal?: AbortSignal): Promise<CondensedMemory[]> {
    const promptFile = this.options.promptFile ?? findPromptFile();
    let template: string;
    try {
      if (!promptFile) throw new Error('resources/prompts/capture.zh-TW.md was not found');
      template = fs.readFileSync(promptFile, 'utf8');
    } catch (error) {
      throw new CondenseFailure('prompt-missing', (error as Error).message);
    }
    const prompt = await buildCapturePrompt(template, input);
    const { args, format } = cliInvocation(this.options.cli, prompt, this.options.model);
    fs.mkdirSync(this.options.cwd, { recursive: true, mode: PRIVATE_DIR_MODE });
    const result = await runHeadless({
      command: this.options.command,
      args,
      env: condenserEnv(this.options.env),
      cwd: this.options.cwd,
      timeoutMs: this.options.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const seconds = Math.round(this.options.timeoutMs / 1000);
    if (result.spawnError) throw new CondenseFailure('spawn-error', `${this.options.command}: ${result.spawnError}`);
    if (result.timedOut) throw new CondenseFailure('timeout', `${this.name} gave no answer within ${seconds} s (ROLE_CAPTURE_TIMEOUT)`);
    if (result.aborted) throw new CondenseFailure('aborted', `${this.name} was stopped`);
    if (result.code !== 0) {
      // Claude says "Execution error" (or is_error) and exits 1 when the run itself broke: name it so.
      try {
        unwrapCliOutput(format, result.stdout);
      } catch (error) {
        if (error instanceof CondenseFailure && error.kind === 'execution-error') throw error;
      }
      const stderr = result.stderr.trim().split(/\r?\n/).slice(-3).join(' | ').slice(0, 300);
      throw new CondenseFailure('exit-code', `${this.name} exited with code ${result.code}${stderr ? `: ${stderr}` : ''}`);
    }
    return parseCondensedAnswer(unwrapCliOutput(format, result.stdout));
  }
}

export interface ResolvedCondenser {
  condenser: CliCondenser | undefined;
  /** ROLE_CLI named a CLI that is not on PATH (reported as the fallback's reason). */
  missing?: string;
}

/** The CLI condenser ROLE_CLI asks for, if one can run here (else the caller uses the local one). */
export function resolveCliCondenser(config: KiokuConfig, assistant: string | undefined): ResolvedCondenser {
  const setting = config.settings.ROLE_CLI;
  const chosen = chooseCondenserCli(setting, assistant, config.env);
  if (!chosen) {
    const named = setting.trim().toLowerCase();
    return named !== 'auto' && named !== 'local' ? { condenser: undefined, missing: named } : { condenser: undefined };
  }
  return {
    condenser: new CliCondenser({
      cli: chosen.cli,
      command: chosen.command,
      env: config.env,
      cwd: path.join(config.paths.stateDir, 'condenser'),
      timeoutMs: config.settings.ROLE_CAPTURE_TIMEOUT * 1000,
      model: config.settings.ROLE_MODEL,
    }),
  };
}
