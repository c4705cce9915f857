import { describe, expect, it } from 'vitest';
import type { MindmapNodeView } from '../../../../common/ui-contract.js';
import { layoutMindmap, shortLabel, textWidth, type LaidNode } from './mindmap-layout.js';

const label = (c: string) => ({ important: '重要', interest: '興趣', news: '新知', skill: '技能', daily: '日常', other: '其他' })[c] ?? c;
const node = (id: string, text: string, weight: number, category: MindmapNodeView['category']): MindmapNodeView => ({
  id,
  label: text,
  weight,
  category,
});
const NODES = [
  node('c1', '部署', 5, 'important'),
  node('c2', '上線', 3, 'important'),
  node('c3', 'runbook', 2, 'skill'),
  node('c4', 'Node 20', 2, 'important'),
  node('c5', '牛肉麵', 1, 'daily'),
  node('c6', '前端', 1, 'interest'),
];

function overlaps(a: LaidNode, b: LaidNode): boolean {
  return Math.abs(a.x - b.x) * 2 < a.width + b.width && Math.abs(a.y - b.y) * 2 < a.height + b.height;
}

describe('the mind map layout', () => {
  it('gives the same picture for the same graph', () => {
    const a = layoutMindmap({ title: '小豹', nodes: NODES, categoryLabel: label });
    const b = layoutMindmap({ title: '小豹', nodes: NODES, categoryLabel: label });
    expect(b).toEqual(a);
  });

  it('puts the role in the middle, a node per category and per concept, none overlapping', () => {
    const layout = layoutMindmap({ title: '小豹', nodes: NODES, categoryLabel: label });
    expect(layout.nodes[0]).toMatchObject({ kind: 'root', label: '小豹', x: 0, y: 0 });
    expect(
      layout.nodes
        .filter((n) => n.kind === 'category')
        .map((n) => n.label)
        .sort(),
    ).toEqual(['技能', '日常', '興趣', '重要'].sort());
    expect(layout.nodes.filter((n) => n.kind === 'concept')).toHaveLength(NODES.length);
    expect(layout.links).toHaveLength(4 + NODES.length);
    for (const [i, a] of layout.nodes.entries())
      for (const b of layout.nodes.slice(i + 1)) expect(overlaps(a, b), `${a.label} / ${b.label}`).toBe(false);
    // Both sides are used and every node lies inside the view box.
    expect(new Set(layout.nodes.filter((n) => n.kind === 'concept').map((n) => n.side))).toEqual(new Set([-1, 1]));
    for (const n of layout.nodes) {
      expect(Math.abs(n.x) + n.width / 2).toBeLessThanOrEqual(layout.width / 2);
      expect(Math.abs(n.y) + n.height / 2).toBeLessThanOrEqual(layout.height / 2);
    }
  });

  it('puts every category to the right when one-sided, in a narrower box that still holds every node', () => {
    const both = layoutMindmap({ title: '小豹', nodes: NODES, categoryLabel: label });
    const one = layoutMindmap({ title: '小豹', nodes: NODES, categoryLabel: label, oneSided: true });
    expect(one.nodes.filter((n) => n.kind !== 'root').every((n) => n.side === 1 && n.x > 0)).toBe(true);
    expect(one.width).toBeLessThan(both.width);
    const [minX, minY, width, height] = one.viewBox.split(' ').map(Number) as [number, number, number, number];
    for (const n of one.nodes) {
      expect(n.x - n.width / 2).toBeGreaterThanOrEqual(minX);
      expect(n.x + n.width / 2).toBeLessThanOrEqual(minX + width);
      expect(Math.abs(n.y) + n.height / 2).toBeLessThanOrEqual(minY + height);
    }
    for (const [i, a] of one.nodes.entries())
      for (const b of one.nodes.slice(i + 1)) expect(overlaps(a, b), `${a.label} / ${b.label}`).toBe(false);
  });

  it('measures CJK as full width and shortens very long labels', () => {
    expect(textWidth('部署', 10)).toBe(20);
    expect(textWidth('ab', 10)).toBe(12);
    expect(shortLabel('這是一個非常非常非常非常非常長的概念名稱')).toMatch(/…$/);
    expect(shortLabel('部署')).toBe('部署');
  });

  it('draws only the root when there are no concepts', () => {
    const layout = layoutMindmap({ title: '小豹', nodes: [], categoryLabel: label });
    expect(layout.nodes).toHaveLength(1);
    expect(layout.links).toHaveLength(0);
  });
});
