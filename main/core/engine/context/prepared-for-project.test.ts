import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../../common/memory.js';
import { memoryObject } from '../../../../test/helpers/memory-object.js';
import { prepareLongTermMemory } from './memory-block.js';
import { waitingConventions, waitsForProject } from './project-conventions.js';
import { projectExtra, visibleInProject } from '../../store/projects/memory-project.js';
import { memoriesForProject, preparedForProject, projectSpecificMemories } from './session-project.js';

/**
 * The daemon prepares one long-term load for every project and narrows it per session (the hooks
 * bench: preparing each project's list anew cost every SessionStart ~130 ms at 10k memories).
 * Narrowing must give exactly the load prepared from the narrowed list.
 */
const NOW = new Date(2026, 11, 1, 10, 0);
const options = { roleId: 'R01', language: 'zh-TW' as const, now: NOW, fullMinPriority: 4, digestMinPriority: 3 };

function memories(): readonly Memory[] {
  const list: Memory[] = [];
  for (let i = 0; i < 60; i++) {
    const project = i % 3 === 0 ? '/work/a' : i % 3 === 1 ? '/work/b' : undefined;
    const specific = project !== undefined && i % 2 === 0;
    list.push(
      memoryObject(`m${String(i).padStart(2, '0')}`, {
        category: i % 4 === 0 ? 'important' : 'skill',
        memory_type: i % 5 === 0 ? 'rule' : 'semantic',
        priority: 2 + (i % 4),
        summary: `第 ${i} 則`,
        extra: project ? projectExtra({ projects: [project], specific }) : {},
      }),
    );
  }
  return Object.freeze(list);
}

// Prepared from whole memories here, so each item's memory is one (a load from disk carries less).
const idOf = (item: { memory: object }) => (item.memory as Memory).id;
const shape = (prepared: ReturnType<typeof prepareLongTermMemory>) => ({
  full: prepared.full.map((i) => [idOf(i), i.text]),
  digest: prepared.digest.map((i) => [idOf(i), i.text]),
});

describe('preparedForProject', () => {
  it('narrows the whole load to exactly the load of the narrowed list, per project, and is kept', () => {
    const all = memories();
    const whole = prepareLongTermMemory(all, options);
    for (const project of ['/work/a', '/work/b', '/elsewhere', undefined]) {
      const narrowed = preparedForProject(whole, project);
      expect(shape(narrowed), String(project)).toEqual(shape(prepareLongTermMemory([...memoriesForProject(all, project)], options)));
      expect(preparedForProject(whole, project)).toBe(narrowed);
    }
    // A convention of /work/a (m00) is in /work/a's load and left out of /work/b's.
    const ids = (project: string) => [...preparedForProject(whole, project).full, ...preparedForProject(whole, project).digest].map(idOf);
    expect(ids('/work/a')).toContain('m00');
    expect(ids('/work/b')).not.toContain('m00');
  });

  it('is the prepared load itself when nothing is left out', () => {
    const global = Object.freeze(memories().map((m) => ({ ...m, extra: {} })));
    const whole = prepareLongTermMemory(global, options);
    expect(preparedForProject(whole, '/work/a')).toBe(whole);
  });
});

describe("memoriesForProject and waitingConventions on the daemon's frozen lists", () => {
  it('give what a pass over every memory gives, and are kept with the list', () => {
    const all = memories();
    for (const project of ['/work/a', '/work/b', '/elsewhere', undefined]) {
      const narrowed = memoriesForProject(all, project);
      expect(
        narrowed.map((m) => m.id),
        String(project),
      ).toEqual(all.filter((m) => visibleInProject(m.extra, project)).map((m) => m.id));
      expect(memoriesForProject(all, project)).toBe(narrowed);
      if (!project) continue;
      const waiting = waitingConventions(all, project);
      expect(waiting.map((m) => m.id)).toEqual(all.filter((m) => waitsForProject(m, project)).map((m) => m.id));
      expect(waitingConventions(all, project)).toBe(waiting);
    }
    expect(waitingConventions(all, '/work/a').length).toBeGreaterThan(0);
    expect(projectSpecificMemories(all).every((m) => m.extra.project_specific === true)).toBe(true);
  });

  it('hand back the list itself when no memory is project-specific', () => {
    const global = Object.freeze(memories().map((m) => ({ ...m, extra: {} })));
    expect(projectSpecificMemories(global)).toEqual([]);
    expect(memoriesForProject(global, '/work/a')).toBe(global);
    expect(waitingConventions(global, '/work/a')).toEqual([]);
  });
});
