import { afterEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { writeText } from '../../../../test/cli/role-test-fixtures.js';
import { buildMindmapGraph } from './mindmap-graph.js';
import { escapeMermaidLabel, unescapeMermaidLabel } from './mindmap-mermaid.js';
import { buildRoleMindmap } from './role-mindmap.js';

/** PM-5: the Mermaid mind map of a role's consolidated concepts (tags and links). */
const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

const ROLE = 'LUMI01';

/** A role whose memories carry tags that are hard for Mermaid: brackets, quotes, `#`, backticks, CJK. */
function fixtureRole(): TempHome {
  const home = makeTempHome();
  homes.push(home);
  writeText(home.roleHome, `${ROLE}.identity.md`, `---\nid: ${ROLE}\nname: 露米 (Lumi)\nemoji: 🌙\n---\n\n# 露米\n`);
  writeText(home.roleHome, `${ROLE}.soul.md`, `---\nid: ${ROLE}\n---\n\n## 本質（nature）\n\n研究助理。\n\n## 氛圍（vibe）\n\n溫和。\n`);
  const m = (category: string, id: string, tags: string[], links: string[] = []) =>
    writeMemoryFixture(home.memoryHome, ROLE, category, id, { tags, links });
  m('important', 'a', ['工作節奏', '會議', 'work']);
  m('important', 'b', ['工作節奏', '討厭早會'], ['c']);
  m('daily', 'c', ['共同經驗', '除錯', 'C#']);
  m('daily', 'd', ['共同經驗', '(括號)', '[方括號]', '"引號"']);
  m('skill', 'e', ['除錯', '`code`', 'WORK'], ['a', 'missing-id']);
  m('other', 'f', ['work', 'ｗｏｒｋ']); // one concept, spelled three ways across memories
  m('inbox', 'g', ['還沒整理', '會議']); // inbox is not consolidated: not on the map
  return home;
}

const TAGS = new Set([
  '工作節奏',
  '會議',
  'work',
  'WORK',
  'ｗｏｒｋ',
  '討厭早會',
  '共同經驗',
  '除錯',
  'C#',
  '(括號)',
  '[方括號]',
  '"引號"',
  '`code`',
]);

/** Mermaid mindmap rules: `mindmap` first, one root, children indented exactly one level deeper than a parent. */
function checkMindmapSyntax(text: string): { depth: number; id: string; label: string }[] {
  const lines = text.replace(/\n$/, '').split('\n');
  expect(lines[0]).toBe('mindmap');
  const nodes: { depth: number; id: string; label: string }[] = [];
  let previousDepth = 0;
  lines.slice(1).forEach((line, i) => {
    const indent = /^( *)/.exec(line)![1]!.length;
    expect(indent % 2, `line ${i + 2} indentation: ${line}`).toBe(0);
    const depth = indent / 2;
    expect(depth, `line ${i + 2} is nested too deep: ${line}`).toBeLessThanOrEqual(previousDepth + 1);
    if (i === 0) expect(depth).toBe(1);
    else expect(depth, 'only one root').toBeGreaterThan(1);
    const node = i === 0 ? /^ +(root)\(\("([^"]*)"\)\)$/.exec(line) : /^ +([A-Za-z][\w-]*)\["([^"]*)"\]$/.exec(line);
    expect(node, `line ${i + 2} is not a node: ${line}`).not.toBeNull();
    nodes.push({ depth, id: node![1]!, label: unescapeMermaidLabel(node![2]!) });
    previousDepth = depth;
  });
  return nodes;
}

describe('kioku memory mindmap (PM-5)', () => {
  it('is valid mindmap syntax whose concept nodes are real tags, grouped under their categories', () => {
    const home = fixtureRole();
    const map = buildRoleMindmap(home.config(), ROLE);
    const nodes = checkMindmapSyntax(map.mermaid);
    expect(nodes[0]).toEqual({ depth: 1, id: 'root', label: '露米 (Lumi)' });
    const concepts = nodes.filter((node) => node.depth === 3);
    expect(concepts.length).toBe(map.nodes.length);
    for (const node of concepts) expect(TAGS.has(node.label), node.label).toBe(true);
    for (const node of map.nodes) expect(TAGS.has(node.label), node.label).toBe(true);
    expect(new Set(map.nodes.map((node) => node.label.normalize('NFKC').toLowerCase())).size).toBe(map.nodes.length); // no concept twice
    expect(map.nodes.map((node) => node.label)).not.toContain('還沒整理');
    expect(map.memories).toBe(6);
    // Each concept sits under the category holding most of its memories.
    const under = (label: string) => {
      const at = nodes.findIndex((node) => node.label === label);
      return nodes
        .slice(0, at)
        .reverse()
        .find((node) => node.depth === 2)!.label;
    };
    expect(under('工作節奏')).toBe('重要');
    expect(under('共同經驗')).toBe('日常');
    expect(map.nodes.find((node) => node.label.toLowerCase() === 'work')).toMatchObject({ label: 'work', weight: 3, id: 'c1' });
    expect(map.mermaid).toContain('c1["work"]');
    expect(map.mermaid).toContain('["C#35;"]');
    expect(map.mermaid).toContain('["#quot;引號#quot;"]');
    expect(map.mermaid).toContain('["(括號)"]');
    expect(map.mermaid).toContain('["#96;code#96;"]');
  });

  it('edges count concepts on one memory and on linked memories (each pair once)', () => {
    const home = fixtureRole();
    const map = buildRoleMindmap(home.config(), ROLE);
    const id = (label: string) => map.nodes.find((node) => node.label === label)!.id;
    const edge = (a: string, b: string) =>
      map.edges.find((e) => (e.source === id(a) && e.target === id(b)) || (e.source === id(b) && e.target === id(a)));
    expect(edge('工作節奏', '討厭早會')).toMatchObject({ together: 1, linked: 0, weight: 1 });
    expect(edge('討厭早會', '除錯')).toMatchObject({ together: 0, linked: 1 }); // b links c
    expect(edge('work', '除錯')).toMatchObject({ together: 1, linked: 1 }); // e has both, and e links a (work)
    expect(edge('工作節奏', 'work')).toMatchObject({ together: 1, linked: 1 });
    for (const e of map.edges) {
      expect(e.weight).toBe(e.together + e.linked);
      expect(map.nodes.some((node) => node.id === e.source) && map.nodes.some((node) => node.id === e.target)).toBe(true);
    }
  });

  it('is stable: the same memories in any order give the same text and data', () => {
    const home = fixtureRole();
    const first = buildRoleMindmap(home.config(), ROLE);
    expect(buildRoleMindmap(home.config(), ROLE)).toEqual(first);
    const memories = [
      { id: 'x', category: 'daily' as const, tags: ['甲', '乙'], links: ['y'] },
      { id: 'y', category: 'skill' as const, tags: ['乙', '丙'], links: [] },
      { id: 'z', category: 'daily' as const, tags: ['丙', '甲', '丁'], links: ['x'] },
    ];
    const graph = buildMindmapGraph(memories);
    expect(buildMindmapGraph([...memories].reverse())).toEqual(graph);
    expect(buildMindmapGraph([memories[1]!, memories[2]!, memories[0]!])).toEqual(graph);
  });

  it('keeps the heaviest N concepts and notes how many more there are', () => {
    const home = fixtureRole();
    const map = buildRoleMindmap(home.config(), ROLE, { maxConcepts: 3 });
    expect(map.nodes.map((node) => [node.label, node.weight])).toEqual([
      ['work', 3],
      ['共同經驗', 2],
      ['工作節奏', 2],
    ]);
    expect(map.omitted).toBe(8); // 11 concepts: work/WORK/ｗｏｒｋ are one, inbox tags are not counted
    const nodes = checkMindmapSyntax(map.mermaid);
    expect(nodes.at(-1)).toEqual({ depth: 2, id: 'more', label: '…另有 8 個概念' });
    expect(map.edges.every((e) => ['c1', 'c2', 'c3'].includes(e.source) && ['c1', 'c2', 'c3'].includes(e.target))).toBe(true);
  });

  it('a role without tagged memories gets a map with only its root', () => {
    const home = makeTempHome();
    homes.push(home);
    writeMemoryFixture(home.memoryHome, 'EMPTY01', 'daily', 'a', { tags: [] });
    const map = buildRoleMindmap(home.config(), 'EMPTY01');
    expect(map.mermaid).toBe('mindmap\n  root(("EMPTY01"))\n');
    expect(map.nodes).toEqual([]);
  });

  it('escapes what a quoted label cannot hold and reads back to the tag', () => {
    for (const tag of ['C#', '"a"', '`x`', '#quot;', 'a\nb', '中文 (一) [二] {三}']) {
      const escaped = escapeMermaidLabel(tag);
      expect(escaped).not.toMatch(/["`\n]/);
      expect(unescapeMermaidLabel(escaped)).toBe(tag.replace(/\n/g, ' '));
    }
  });
});
