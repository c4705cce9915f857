/**
 * secretlint 11's profiler (@secretlint/profiler, a dependency of @secretlint/core pinned to the
 * same version) records a performance mark for every rule on every lint and never forgets them:
 * its PerformanceObserver scans all earlier marks on each new one (secretlint issues #1633 and
 * #1653, fixed upstream by PR #1673, "enable profiling only when --profile is specified"). A
 * one-shot CLI hardly notices; a daemon that redacts every captured memory gets slower with each
 * one — measured here: 300 captures took 10 minutes of CPU instead of 20 seconds, and the daemon
 * stopped answering hooks in time. Kioku never reads the profile, so its `mark` becomes a no-op.
 *
 * Loaded with secretlint itself (redact.ts), never on the hook client's path. If the package
 * cannot be found (a future secretlint without it), nothing is done: only speed is at stake.
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
