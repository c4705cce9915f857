import { git, gitOk, splitZ } from './git.js';
import { recordConflict } from './conflict-records.js';

/**
 * What git leaves unmerged even with Kioku's drivers — a file changed on one side and deleted on
 * the other, a driver that failed — is settled so that nothing is lost: the changed version is
 * kept over the deletion, and where both sides hold a version, ours stays in place and theirs is
 * recorded as a conflict copy.
 */
export function unmergedPaths(dir: string, env: NodeJS.ProcessEnv): Map<string, Set<number>> {
  const stages = new Map<string, Set<number>>();
  for (const entry of splitZ(gitOk(dir, ['ls-files', '-u', '-z'], { env }))) {
    const m = /^\d+ [0-9a-f]+ (\d)\t(.*)$/s.exec(entry);
    if (!m) continue;
    const set = stages.get(m[2]!) ?? new Set<number>();
    set.add(Number(m[1]));
    stages.set(m[2]!, set);
  }
  return stages;
}

export function resolveUnmerged(dir: string, env: NodeJS.ProcessEnv): number {
  const stages = unmergedPaths(dir, env);
  for (const [file, present] of stages) {
    const ours = present.has(2);
    const theirs = present.has(3);
    if (ours && theirs) {
      gitOk(dir, ['checkout', '--ours', '--', file], { env });
      recordConflict(dir, { path: file, theirs: gitOk(dir, ['show', `:3:${file}`], { env }) });
      gitOk(dir, ['add', '--', file], { env });
    } else if (theirs) {
      gitOk(dir, ['checkout', '--theirs', '--', file], { env });
      gitOk(dir, ['add', '--', file], { env });
    } else if (ours) {
      gitOk(dir, ['add', '--', file], { env });
    } else {
      git(dir, ['rm', '-q', '--cached', '--', file], { env });
    }
  }
  return stages.size;
}
