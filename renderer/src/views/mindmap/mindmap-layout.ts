import { CATEGORIES, type ConsolidatedCategory } from '../../../../common/memory.js';
import type { MindmapEdgeView, MindmapNodeView } from '../../../../common/ui-contract.js';

/**
 * A mind map drawn without Mermaid (its renderer is large and needs eval, which the page's CSP
 * refuses): the classic two-sided layout — the role in the middle, its categories on either
 * side, each category's concepts stacked beside it, horizontal CJK labels that never overlap.
 * Pure and deterministic: the same graph always gives the same picture (sides are balanced by
 * concept count in the category order, concepts keep main's weight order).
 */
export interface LaidNode {
  id: string;
  kind: 'root' | 'category' | 'concept';
  label: string;
  /** Centre of the label pill. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** -1 left, 1 right, 0 the root. */
  side: -1 | 0 | 1;
  category?: ConsolidatedCategory;
  weight?: number;
}

export interface LaidLink {
  from: string;
  to: string;
  path: string;
  category: ConsolidatedCategory;
}

export interface MindmapLayout {
  nodes: LaidNode[];
  links: LaidLink[];
  /** `minX minY width height` for the SVG. */
  viewBox: string;
  width: number;
  height: number;
}

export const ROW = 36;
const CATEGORY_GAP = 22;
const COLUMN_GAP = 64;
const MARGIN = 24;
export const FONT = { root: 18, category: 15, concept: 14 } as const;
const PAD = { root: 22, category: 16, concept: 13 } as const;
const HEIGHT = { root: 44, category: 32, concept: 28 } as const;

/** East Asian wide characters and emoji take a full em; everything else about 0.6 em. */
function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    codePoint >= 0x1f000
  );
}

export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) em += isWide(ch.codePointAt(0)!) ? 1 : 0.6;
  return Math.ceil(em * fontSize);
}

/** Labels longer than this are shortened with … (the full text is in the node's description). */
const MAX_LABEL_EM = 14;

export function shortLabel(text: string): string {
  let em = 0;
  let out = '';
  for (const ch of text) {
    em += isWide(ch.codePointAt(0)!) ? 1 : 0.6;
    if (em > MAX_LABEL_EM) return `${out}…`;
    out += ch;
  }
  return out;
}

function pill(kind: LaidNode['kind'], label: string): { width: number; height: number } {
  return { width: textWidth(label, FONT[kind]) + PAD[kind] * 2, height: HEIGHT[kind] };
}

/** A smooth horizontal S-curve from (x1,y1) to (x2,y2). */
export function curve(x1: number, y1: number, x2: number, y2: number): string {
  const mid = (x1 + x2) / 2;
  return `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
}

/** The edge of a node facing the given side. */
const edgeX = (node: LaidNode, towards: -1 | 1) => node.x + (towards * node.width) / 2;

/**
 * A curve between two related concepts, drawn when one of them has focus: beside them when they
 * are on one side, through the middle (under the root) when they are on opposite sides.
 */
export function relatedPath(a: LaidNode, b: LaidNode): string {
  if (a.side === b.side) {
    const side = a.side === -1 ? -1 : 1;
    const x1 = edgeX(a, side);
    const x2 = edgeX(b, side);
    const bulge = Math.max(side * x1, side * x2) + 30 + Math.min(120, Math.abs(a.y - b.y) / 4);
    return `M${x1},${a.y} C${side * bulge},${a.y} ${side * bulge},${b.y} ${x2},${b.y}`;
  }
  const x1 = edgeX(a, a.side === -1 ? 1 : -1);
  const x2 = edgeX(b, b.side === -1 ? 1 : -1);
  return `M${x1},${a.y} C0,${a.y} 0,${b.y} ${x2},${b.y}`;
}

/** oneSided: every category to the right of the role, for a narrow window (about half as wide). */
export function layoutMindmap(input: {
  title: string;
  nodes: readonly MindmapNodeView[];
  categoryLabel(category: ConsolidatedCategory): string;
  oneSided?: boolean;
}): MindmapLayout {
  const groups = CATEGORIES.map((category) => ({ category, concepts: input.nodes.filter((node) => node.category === category) })).filter(
    (g) => g.concepts.length > 0,
  );
  // Balance the two sides by rows, in the category order; ties go right (read first).
  const sides: Record<-1 | 1, typeof groups> = { [-1]: [], [1]: [] };
  const rows = { [-1]: 0, [1]: 0 } as Record<-1 | 1, number>;
  for (const group of groups) {
    const side: -1 | 1 = input.oneSided || rows[1] <= rows[-1] ? 1 : -1;
    sides[side].push(group);
    rows[side] += group.concepts.length;
  }

  const rootLabel = shortLabel(input.title);
  const root: LaidNode = { id: 'root', kind: 'root', label: rootLabel, x: 0, y: 0, side: 0, ...pill('root', rootLabel) };
  const nodes: LaidNode[] = [root];
  const links: LaidLink[] = [];
  const widest = (kind: 'category' | 'concept', labels: string[]) => Math.max(0, ...labels.map((label) => pill(kind, label).width));
  const categoryWidth = widest(
    'category',
    groups.map((g) => input.categoryLabel(g.category)),
  );
  const categoryInner = root.width / 2 + COLUMN_GAP;
  const conceptInner = categoryInner + categoryWidth + COLUMN_GAP;
  let extentX = root.width / 2;
  let extentY = root.height / 2;

  for (const side of [1, -1] as const) {
    const blocks = sides[side];
    const height = blocks.reduce((sum, g) => sum + g.concepts.length * ROW, 0) + Math.max(0, blocks.length - 1) * CATEGORY_GAP;
    let top = -height / 2;
    for (const group of blocks) {
      const blockHeight = group.concepts.length * ROW;
      const label = input.categoryLabel(group.category);
      const size = pill('category', label);
      const category: LaidNode = {
        id: `category-${group.category}`,
        kind: 'category',
        label,
        x: side * (categoryInner + size.width / 2),
        y: top + blockHeight / 2,
        side,
        category: group.category,
        ...size,
      };
      nodes.push(category);
      links.push({
        from: root.id,
        to: category.id,
        path: curve(edgeX(root, side), root.y, edgeX(category, side === 1 ? -1 : 1), category.y),
        category: group.category,
      });
      group.concepts.forEach((concept, index) => {
        const text = shortLabel(concept.label);
        const conceptSize = pill('concept', text);
        const node: LaidNode = {
          id: concept.id,
          kind: 'concept',
          label: text,
          x: side * (conceptInner + conceptSize.width / 2),
          y: top + index * ROW + ROW / 2,
          side,
          category: group.category,
          weight: concept.weight,
          ...conceptSize,
        };
        nodes.push(node);
        links.push({
          from: category.id,
          to: node.id,
          path: curve(edgeX(category, side), category.y, edgeX(node, side === 1 ? -1 : 1), node.y),
          category: group.category,
        });
        extentX = Math.max(extentX, conceptInner + conceptSize.width);
      });
      top += blockHeight + CATEGORY_GAP;
    }
    extentY = Math.max(extentY, height / 2);
  }
  // Room for related-concept curves beside the outer column.
  const outer = groups.length ? 70 : 0;
  const right = extentX + outer + MARGIN;
  const height = Math.ceil(2 * (extentY + MARGIN));
  if (input.oneSided) {
    const left = root.width / 2 + MARGIN;
    const width = Math.ceil(left + right);
    return { nodes, links, width, height, viewBox: `${-left} ${-height / 2} ${width} ${height}` };
  }
  const width = Math.ceil(2 * right);
  return { nodes, links, width, height, viewBox: `${-width / 2} ${-height / 2} ${width} ${height}` };
}

/** The concepts related to one, strongest first (main's edges are already in weight order). */
export function relatedOf(id: string, edges: readonly MindmapEdgeView[]): { other: string; edge: MindmapEdgeView }[] {
  return edges
    .filter((edge) => edge.source === id || edge.target === id)
    .map((edge) => ({ other: edge.source === id ? edge.target : edge.source, edge }));
}
