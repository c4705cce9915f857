import type { Command } from 'commander';
import { createDemoNarrator } from '../../core/hosts/demo/demo-text.js';
import { runDemo } from '../../core/hosts/demo/run-demo.js';
import { defaultHookClientPath } from '../../core/integrations/setup/hook-client-path.js';
import type { CliContext } from '../cli-context.js';

/** What tests inject; an installed `kioku demo` uses the defaults. */
export interface DemoCommandDeps {
  /** Default: dist/hooks/kioku-hook.js of this install (the one the assistants run). */
  hookClientPath?: string;
  /** The environment the demo reads KIOKU_NOW, TZ and PATH from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the throw-away home is made (default: the OS temp folder). */
  tmpRoot?: string;
}

interface DemoCliOptions {
  clean?: boolean;
  json?: boolean;
}

/**
 * `kioku demo [--clean] [--json]` (CLI.md): a guided run on a throw-away home. The CLI context
 * is used for output only — its config points at the user's real homes, which the demo never
 * uses. Works both ways the CLI registers commands: given the `demo` command itself (kioku.ts's
 * GROUPS creates `program.command(name)` and passes it in) it configures that; given the root
 * program it adds a `demo` command.
 */
export function registerDemoCommand(parent: Command, getContext: () => CliContext, deps: DemoCommandDeps = {}): void {
  const command = parent.name() === 'demo' ? parent : parent.command('demo');
  command
    .description(
      'a guided run on a throw-away home: a sample role, a session replayed through the real hooks, and what the next session would load',
    )
    .option('--clean', 'delete the throw-away home at the end')
    .option('--json', 'print one JSON document with every step and its output')
    .action(async (options: DemoCliOptions) => {
      const ctx = getContext();
      const json = Boolean(options.json);
      const narrator = createDemoNarrator();
      const report = await runDemo({
        hookClientPath: deps.hookClientPath ?? defaultHookClientPath(),
        clean: Boolean(options.clean),
        env: deps.env ?? process.env,
        ...(deps.tmpRoot ? { tmpRoot: deps.tmpRoot } : {}),
        // Text is printed step by step: spawning the hook client ten times takes a few seconds.
        ...(json ? {} : { onStep: (step) => ctx.print(narrator.step(step)) }),
      });
      if (json) ctx.printJson(report);
      else ctx.print(narrator.end(report));
    });
}
