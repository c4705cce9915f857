import v8 from 'node:v8';

/**
 * Ask V8 to compile baseline (Sparkplug) code for every function when it is first compiled, in a
 * host that stays up and answers hooks: `kioku daemon` (bin/kioku.js, before it loads the CLI)
 * and the tray app (main/app/prefer-baseline-code.ts, the Electron entry's first import).
 *
 * Why: V8 starts each function in its interpreter and makes baseline code only once the function
 * has spent a budget of interrupts. The daemon's answers run code that runs a few times an hour
 * (one SessionStart per session), so most of it stayed interpreted however long the daemon was
 * up. Baseline code is made from the bytecode in one quick pass and costs little memory; with it
 * the daemon's part of a SessionStart in the hooks bench fell by about 0.15 ms of 1.65 (issue 17,
 * design notes "baseline-code.ts").
 *
 * Set at run time, it applies to every function compiled afterwards: V8 reads the flag at each
 * lazy compile, and Node leaves V8's flags unfrozen for v8.setFlagsFromString. So it must come
 * first: asked once the CLI had parsed its command line and read the settings, the functions the
 * answers share with start-up were already compiled, and the bench saw no difference. Never for
 * the short processes (hooks, the CLI): there compiling more than the interpreter needs only costs.
 */
export function preferBaselineCode(): void {
  // Setting it twice is harmless, and it never throws (a V8 without the flag says so on stderr).
  v8.setFlagsFromString('--always-sparkplug');
}
