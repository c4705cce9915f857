import type { MemoryLoadProblem } from '../../../../common/memory.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { languageOfRole, type ContextLanguage } from '../../platform/text/context-language.js';
import { loadRoleMemories } from '../../store/memory/memory-layout.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { buildMindmapGraph, DEFAULT_MAX_CONCEPTS, type MindmapEdge, type MindmapNode } from './mindmap-graph.js';
import { renderMermaidMindmap } from './mindmap-mermaid.js';

/**
 * PM-5: a role's mind map, as Mermaid text for people and as data for the UI
 * (`{ mermaid, nodes, edges }`), from the memory files (the truth), never the index.
 */
export interface RoleMindmap {
  role: string;
  /** The root's label: the role's display name, else its ID. */
  title: string;
  mermaid: string;
  nodes: MindmapNode[];
  edges: MindmapEdge[];
  omitted: number;
  memories: number;
  problems: MemoryLoadProblem[];
}

export function buildRoleMindmap(config: KiokuConfig, role: string, options: { maxConcepts?: number } = {}): RoleMindmap {
  let title = role;
  let language: ContextLanguage = 'zh-TW';
  try {
    const definition = readRoleDefinition(config.paths.roleHome, role);
    title = definition.name || role;
    language = languageOfRole(definition);
  } catch {
    // A memory folder without a readable definition (e.g. after an import) still has a mind map.
  }
  const { memories, problems } = loadRoleMemories(config.paths.memoryHome, role);
  const graph = buildMindmapGraph(memories, options.maxConcepts ?? DEFAULT_MAX_CONCEPTS);
  return { role, title, mermaid: renderMermaidMindmap(graph, title, language), ...graph, problems };
}
