import type { KiokuConfig } from '../../platform/config/config.js';
import { chooseCondenserCli } from '../llm-cli/cli-commands.js';
import type { Planner } from './sleep-plan.js';

/**
 * SLEEP-6: the planner for this run. `ROLE_CLI=local` → the local planner (X-LOCAL); otherwise
 * the CLI that ROLE_CLI names (or, for `auto`, the first one found on PATH) → the LLM planner;
 * no CLI found → the local planner, because a missing tool must never keep a role awake.
 * Both are imported only when chosen: the CLI planner reads prompts, the local one builds
 * similarity tables.
 */

/**
 * The local planner's batches. It has none of an LLM's limits (SLEEP-5's 4 → 2 → 1 is about how
 * many JSON records one model answer can hold), and larger batches find more near-duplicates and
 * record fewer plans. Used when the local planner does not say what it wants itself.
 */
export const LOCAL_BATCH_LIMITS = { items: 250, chars: 200_000, existing: 600 } as const;

async function localPlanner(config: KiokuConfig): Promise<Planner> {
  const { createLocalPlanner } = (await import('./local-planner/index.js')) as { createLocalPlanner(config: KiokuConfig): Planner };
  return withDefaultLimits(createLocalPlanner(config));
}

export function withDefaultLimits(planner: Planner): Planner {
  if (planner.batchLimits || planner.name !== 'local') return planner;
  return { name: planner.name, plan: (batch, planId, signal) => planner.plan(batch, planId, signal), batchLimits: LOCAL_BATCH_LIMITS };
}

export async function choosePlanner(config: KiokuConfig): Promise<Planner> {
  const setting = config.settings.ROLE_CLI;
  if (setting.trim().toLowerCase() === 'local') return localPlanner(config);
  const chosen = chooseCondenserCli(setting, undefined, config.env);
  if (!chosen) return localPlanner(config);
  const { createCliPlanner } = await import('./cli-planner/index.js');
  return createCliPlanner(config, chosen);
}
