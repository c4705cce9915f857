import fs from 'node:fs';
import path from 'node:path';
import type { KiokuConfig } from '../../../platform/config/config.js';
import type { Logger } from '../../../platform/config/log.js';
import { PRIVATE_DIR_MODE } from '../../../platform/fs/atomic-write.js';
import { redactSync } from '../../../platform/privacy/redact-sync.js';
import { readRoleDefinition } from '../../../store/roles/role-repository.js';
import { unwrapCliOutput } from '../../capture/cli-answer.js';
import { cliInvocation, type ChosenCli } from '../../llm-cli/cli-commands.js';
import { condenserEnv } from '../../capture/cli-condenser.js';
import { findPromptFile } from '../../capture/capture-prompt.js';
import { CondenseFailure } from '../../capture/capture-types.js';
import { runHeadless } from '../../llm-cli/run-headless.js';
import { planProblems, PlannerError, type CollectedBatch, type Planner, type PlannerFailureKind, type SleepPlan } from '../sleep-plan.js';
import { extractJsonObject } from './extract-json.js';
import { guardMerges } from './merge-guard.js';
import { readPlanAnswer } from './plan-answer.js';
import { buildSleepPrompt, SLEEP_PROMPT_NAME, type RoleFacts } from './sleep-prompt.js';

/**
 * SLEEP-6's LLM planner: one batch → the sleep prompt → one headless CLI run → a validated plan.
 * Design notes: docs/design-notes.md, "main/core/engine/sleep/cli-planner/index.ts".
 */
export interface CliPlannerOptions {
  /** The prompt template (default: resources/prompts/sleep.zh-TW.md found beside the code). */
  promptFile?: string;
  /** Scratch working folder (default: `<state dir>/sleep-planner`). */
  cwd?: string;
  /** Receives notes (merges kept as linked memories, index lines left out); silent when absent. */
  logger?: Logger;
}

type Diagnostics = PlannerError['diagnostics'];

/** What SLEEP-5 asks every failure message to carry (without them a failure can only be guessed at). */
function describe(d: Diagnostics): string {
  return `material ${d.materialChars} chars, batch ${d.batchSize} item(s), output ${d.outputChars} chars, output starts ${JSON.stringify(d.outputHead)}`;
}

function roleFacts(config: KiokuConfig, roleId: string): RoleFacts {
  try {
    const role = readRoleDefinition(config.paths.roleHome, roleId);
    return { name: role.name || roleId, ...(role.relationship.trim() ? { relationship: role.relationship } : {}) };
  } catch {
    // A role file that cannot be read must not stop its memories from being consolidated.
    return { name: roleId };
  }
}

/** How unwrapCliOutput's failures map onto SLEEP-5's kinds. */
const UNWRAP_KIND: Partial<Record<CondenseFailure['kind'], PlannerFailureKind>> = {
  'execution-error': 'execution',
  'empty-output': 'execution',
  'truncated-json': 'truncated',
  'invalid-json': 'invalid',
};

/** SLEEP-5: the two classes of failure are cured differently, so say which. */
const LABEL: Record<PlannerFailureKind, string> = {
  execution: 'execution error',
  timeout: 'timeout',
  truncated: 'truncated JSON',
  invalid: 'invalid JSON',
  incomplete: 'incomplete plan',
};
const HINT: Partial<Record<PlannerFailureKind, string>> = {
  execution: 'retrying the same batch usually helps',
  truncated: 'a smaller batch usually helps',
};

/** A CondenseFailure's message without its `kind:` prefix and its own output preview. */
const unwrapDetail = (error: CondenseFailure) => error.message.replace(/^[a-z-]+: /, '').replace(/ \(output \d+ chars, starts .*\)$/s, '');

export function createCliPlanner(config: KiokuConfig, chosen: ChosenCli, options: CliPlannerOptions = {}): Planner {
  const name = `cli:${chosen.cli}`;
  const timeoutSeconds = config.settings.ROLE_SLEEP_TIMEOUT;
  const outputLimit = config.settings.ROLE_SLEEP_OUTPUT_LIMIT;
  const cwd = options.cwd ?? path.join(config.paths.stateDir, 'sleep-planner');

  async function plan(batch: CollectedBatch, planId: string, signal?: AbortSignal): Promise<SleepPlan> {
    const diagnostics = (output: string): Diagnostics => ({
      materialChars: batch.materialChars,
      outputChars: output.length,
      batchSize: batch.items.length,
      outputHead: redactSync(output.slice(0, 200)),
    });
    const fail = (kind: PlannerFailureKind, detail: string, output: string) => {
      const d = diagnostics(output);
      const hint = HINT[kind] ? `; ${HINT[kind]}` : '';
      return new PlannerError(kind, `${name} could not plan ${batch.role}'s batch: ${LABEL[kind]} — ${detail}${hint} (${describe(d)})`, d);
    };

    const promptFile = options.promptFile ?? findPromptFile(SLEEP_PROMPT_NAME);
    let template: string;
    try {
      if (!promptFile) throw new Error(`resources/prompts/${SLEEP_PROMPT_NAME} was not found`);
      template = fs.readFileSync(promptFile, 'utf8');
    } catch (error) {
      throw fail('execution', `the consolidation prompt could not be read: ${(error as Error).message} (reinstall Kioku)`, '');
    }
    const built = await buildSleepPrompt(template, batch, roleFacts(config, batch.role), config.clock.now());
    if (built.existingDropped)
      options.logger?.info(
        'sleep',
        `${name}: ${built.existingDropped} existing-memory line(s) left out of the prompt to fit the argument limit`,
      );

    const { args, format } = cliInvocation(chosen.cli, built.prompt, config.settings.ROLE_MODEL);
    fs.mkdirSync(cwd, { recursive: true, mode: PRIVATE_DIR_MODE });
    const result = await runHeadless({
      command: chosen.command,
      args,
      env: condenserEnv(config.env),
      cwd,
      timeoutMs: timeoutSeconds * 1000,
      // Room for the limit in UTF-8 inside a JSON envelope (\uXXXX escapes), so an over-limit
      // answer is still seen whole enough to be told apart from a cut envelope.
      maxBytes: Math.max(1_000_000, outputLimit * 12),
      ...(signal ? { signal } : {}),
    });
    if (result.aborted) throw signal?.reason ?? new DOMException('the consolidation was stopped', 'AbortError');
    if (result.spawnError) throw fail('execution', `${chosen.command} could not be started: ${result.spawnError}`, '');
    if (result.timedOut) {
      throw fail('timeout', `no answer within ${timeoutSeconds} s (ROLE_SLEEP_TIMEOUT); the run was stopped`, result.stdout);
    }
    if (result.code !== 0) {
      const said = /execution error/i.test(result.stdout) ? ' and reported "Execution error"' : '';
      const stderr = redactSync(result.stderr.trim().split(/\r?\n/).slice(-3).join(' | ').slice(0, 300));
      throw fail('execution', `the CLI exited with code ${result.code}${said}${stderr ? `; stderr: ${stderr}` : ''}`, result.stdout.trim());
    }

    let answer: string;
    try {
      answer = unwrapCliOutput(format, result.stdout);
    } catch (error) {
      if (!(error instanceof CondenseFailure)) throw error;
      const kind = UNWRAP_KIND[error.kind] ?? 'invalid';
      throw fail(kind, unwrapDetail(error), result.stdout.trim());
    }

    // SLEEP-6: ROLE_SLEEP_OUTPUT_LIMIT caps the planner output before it is applied — an answer past it is
    // not applied; it is treated as cut off, which halving the batch cures.
    const answerChars = Array.from(answer).length;
    if (answerChars > outputLimit) {
      throw fail('truncated', `the answer is ${answerChars} chars, over ROLE_SLEEP_OUTPUT_LIMIT (${outputLimit})`, answer);
    }
    const extracted = extractJsonObject(answer);
    if (!extracted.ok) throw fail(extracted.kind, extracted.reason, answer);

    const read = readPlanAnswer(extracted.value, {
      id: planId,
      role: batch.role,
      planner: name,
      batch: batch.items.map((item) => item.id),
    });
    if (!read.ok) throw fail('invalid', read.reason, answer);

    const existingIds = new Set(batch.existing.map((ref) => ref.id));
    const incomplete = (problems: string[]) => {
      const listed = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; +${problems.length - 5} more` : '');
      return fail('incomplete', listed, answer);
    };
    const problems = planProblems(read.plan, existingIds);
    if (problems.length) throw incomplete(problems);

    const guarded = guardMerges(read.plan, batch, built.mergeable);
    if (guarded.problems.length) throw incomplete(guarded.problems);
    for (const note of guarded.notes) options.logger?.info('sleep', `${name}: ${note}`);
    const after = planProblems(guarded.plan, existingIds);
    if (after.length) throw incomplete(after);
    return guarded.plan;
  }

  return { name, plan };
}
