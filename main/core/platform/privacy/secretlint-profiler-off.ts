/**
 * Turns off secretlint 11's profiler, whose performance marks pile up forever and slow every lint
 * (secretlint issues #1633, #1653).
 * Design notes: docs/design-notes.md, "main/core/platform/privacy/secretlint-profiler-off.ts".
 */
let silenced: Promise<void> | undefined;

export function silenceSecretlintProfiler(): Promise<void> {
  silenced ??= import('@secretlint/profiler')
    .then(({ secretLintProfiler }) => {
      secretLintProfiler.mark = () => undefined;
    })
    .catch(() => undefined);
  return silenced;
}
