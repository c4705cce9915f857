import { CATEGORIES, CATEGORY_LABELS } from '../../../../common/memory.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';
import type { MindmapGraph } from './mindmap-graph.js';

/**
 * A MindmapGraph as Mermaid `mindmap` text, in the shape PM-5 shows.
 * Design notes: docs/design-notes.md, "main/core/engine/mindmap/mindmap-mermaid.ts".
 */
export function escapeMermaidLabel(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/`/g, '#96;')
    .trim();
}

/** The inverse, for tests and readers of the text. */
export function unescapeMermaidLabel(text: string): string {
  return text
    .replace(/#quot;/g, '"')
    .replace(/#96;/g, '`')
    .replace(/#35;/g, '#');
}

const INDENT = '  ';

export function renderMermaidMindmap(graph: MindmapGraph, rootLabel: string, language: ContextLanguage): string {
  const lines = ['mindmap', `${INDENT}root(("${escapeMermaidLabel(rootLabel) || 'Kioku'}"))`];
  for (const category of CATEGORIES) {
    const nodes = graph.nodes.filter((node) => node.category === category);
    if (!nodes.length) continue;
    lines.push(
      `${INDENT.repeat(2)}${category}["${escapeMermaidLabel(say(language, CATEGORY_LABELS[category].zh, CATEGORY_LABELS[category].en))}"]`,
    );
    for (const node of nodes) lines.push(`${INDENT.repeat(3)}${node.id}["${escapeMermaidLabel(node.label)}"]`);
  }
  if (graph.omitted > 0) {
    lines.push(
      `${INDENT.repeat(2)}more["${escapeMermaidLabel(say(language, `…另有 ${graph.omitted} 個概念`, `… ${graph.omitted} more concepts`))}"]`,
    );
  }
  return `${lines.join('\n')}\n`;
}
