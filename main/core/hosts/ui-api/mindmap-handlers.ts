import type { MindmapView, UiParsedRequest } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { buildRoleMindmap } from '../../engine/mindmap/role-mindmap.js';

/**
 * The mind map view (PM-5, seed 001 §4 更新心智圖): the role's consolidated concepts as data for
 * the UI to draw, plus the Mermaid text for "copy Mermaid" — the same as `kioku memory mindmap
 * --json`. The UI draws it itself: Mermaid's renderer is large and needs eval, which the page's
 * CSP does not allow.
 */
export function roleMindmap(config: KiokuConfig, request: UiParsedRequest<'mindmap.get'>): MindmapView {
  const map = buildRoleMindmap(config, request.role);
  return {
    role: map.role,
    title: map.title,
    mermaid: map.mermaid,
    nodes: map.nodes,
    edges: map.edges,
    omitted: map.omitted,
    memories: map.memories,
    unreadable: map.problems.length,
  };
}
