import os from 'node:os';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { CondensedMemory } from './capture-types.js';
import { projectExtra } from '../../store/projects/memory-project.js';
import { judgeProjectScope } from '../../store/projects/project-judgement.js';
import { projectRootOf } from '../../store/projects/project-root.js';

/** The project of a captured turn: the git top level of the hook payload's cwd (project-root.ts). */
export function captureProject(config: Pick<KiokuConfig, 'env'>, cwd: string | undefined): string | undefined {
  return projectRootOf(cwd, config.env.HOME || os.homedir());
}

/**
 * The project keys of one captured memory (memory-project.ts): every memory records the project
 * it was said in; it is project-specific when its words are about that project
 * (project-judgement.ts) — judged on the memory's own text, so of the two memories of one turn
 * (CAP-4) the feeling stays user-wide while the rule is the project's. Emotional memories and
 * bonds are about the user and the role, never a repository's convention.
 */
export function capturedProjectExtra(project: string | undefined, memory: CondensedMemory, userText: string): Record<string, unknown> {
  if (!project) return {};
  const own = [memory.summary, ...memory.keyPoints, ...memory.tags].join('\n');
  const specific =
    memory.memory_type !== 'emotional' && judgeProjectScope(own) === 'project' && judgeProjectScope(`${own}\n${userText}`) === 'project';
  return projectExtra({ projects: [project], specific });
}

/** A compaction summary tells what a session did in its repository: that project's, never global. */
export function compactProjectExtra(config: Pick<KiokuConfig, 'env'>, cwd: string | undefined): Record<string, unknown> {
  const project = captureProject(config, cwd);
  return project ? projectExtra({ projects: [project], specific: true }) : {};
}

/**
 * CAP-7's explicit "remember this" (CLI and MCP), said in a project: the same keys as a captured
 * memory, judged on the text to remember.
 */
export function rememberedProjectExtra(project: string | undefined, text: string, memoryType: string | undefined): Record<string, unknown> {
  if (!project) return {};
  const specific = memoryType !== 'emotional' && judgeProjectScope(text) === 'project';
  return projectExtra({ projects: [project], specific });
}
