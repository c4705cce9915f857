// Import-boundary check (ARCHITECTURE.md, STYLE.md "Process layering"): code is split by where
// it runs, and an import across the wrong line fails CI. Also checks that nothing the hook
// client loads, directly or through other modules, pulls in a native or heavy package, and
// that main/core keeps its layers (CORE_LAYERS) with no import loop between two of its folders.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The layers inside main/core, lowest first: a file in main/core/<layer>/<folder>/ may import its
 * own layer and the layers below, never one above (type-only imports included: a type pulls its
 * folder's ideas in all the same). docs/architecture.md §Layers draws this table; a test compares.
 */
export const CORE_LAYERS = [
  ['platform', 'settings, paths, files, text, privacy and the socket: nothing about roles or memories'],
  ['store', 'the Markdown truth and its caches: memories, the index, roles, sessions, notes, emoji'],
  ['engine', 'what Kioku does with the store: session context, capture, sleep, schedules, briefs'],
  ['integrations', 'the programs Kioku talks to or installs into: assistants, their setup, import, MCP'],
  ['hosts', 'the processes that run it all: daemon, hook handlers, UI API, status, tray, demo'],
];

/** Zones, most specific first. */
const ZONES = [
  ['main/core', 'core'],
  ['main/app', 'app'],
  ['main/cli', 'cli'],
  ['common', 'common'],
  ['preload', 'preload'],
  ['renderer', 'renderer'],
  ['hooks', 'hooks'],
];

/** Which zones each zone may import (itself included). */
const ALLOWED = {
  common: ['common'],
  core: ['core', 'common'],
  app: ['app', 'core', 'common'],
  cli: ['cli', 'core', 'common'],
  preload: ['preload', 'common'],
  renderer: ['renderer', 'common'],
  hooks: ['hooks', 'core', 'common'],
};

/** Packages a zone must never import. */
const FORBIDDEN_PACKAGES = {
  common: [/^node:/, /^electron$/, /^better-sqlite3$/, /^sharp$/, /^react/],
  core: [/^electron($|\/)/, /^electron-store$/, /^react/],
  cli: [/^electron($|\/)/, /^react/],
  preload: [/^better-sqlite3$/, /^sharp$/, /^react/],
  renderer: [/^node:/, /^electron($|\/)/, /^better-sqlite3$/, /^sharp$/],
  hooks: [/^electron($|\/)/, /^react/],
  app: [/^react/],
};

/** What the hook client may not reach even transitively (it starts for every assistant event). */
const HOOK_HEAVY = [/^better-sqlite3$/, /^sharp$/, /^electron/, /^react/, /^chokidar$/, /^node-schedule$/, /^@secretlint\//, /^opencc-js/, /^tar$/, /^commander$/];

function zoneOf(rel) {
  for (const [prefix, zone] of ZONES) if (rel === prefix || rel.startsWith(prefix + '/')) return zone;
  return undefined;
}

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const specs = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const typeOnly = /^\s*(?:;\s*)?(?:import|export)\s+type\s/.test(m[0]);
    specs.push({ spec: m[1] ?? m[2], typeOnly });
  }
  return specs;
}

function resolveRelative(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** `main/core/<layer>/<folder>` of a repo-relative path, with the layer's rank; undefined outside main/core. */
export function coreFolderOf(rel) {
  if (!rel.startsWith('main/core/')) return undefined;
  const [layer, folder, ...rest] = rel.slice('main/core/'.length).split('/');
  const rank = CORE_LAYERS.findIndex(([name]) => name === layer);
  if (rank < 0 || !folder || rest.length === 0) return { folder: undefined, layer, rank: -1 };
  return { folder: `${layer}/${folder}`, layer, rank };
}

/** Folder loops: the strongly connected components of more than one folder (Tarjan). */
function folderCycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

function main(root) {
  const zoneRoots = ZONES.map(([prefix]) => path.join(root, prefix)).filter((p) => fs.existsSync(p));
  const files = [...new Set(zoneRoots.flatMap((dir) => walk(dir)))];
  const problems = [];
  const graph = new Map();
  /** main/core folder → folder it imports → one file that does it (for the loop report). */
  const folderEdges = new Map();

  for (const file of files) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (/\.test\.tsx?$/.test(rel)) continue;
    const zone = zoneOf(rel);
    if (!zone) continue;
    const from = coreFolderOf(rel);
    if (from && from.rank < 0) problems.push(`${rel}: not in a layer folder main/core/<${CORE_LAYERS.map(([name]) => name).join('|')}>/<folder>/`);
    const edges = [];
    for (const { spec, typeOnly } of importsOf(file)) {
      if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        if (!target) {
          problems.push(`${rel}: cannot resolve import "${spec}"`);
          continue;
        }
        const targetRel = path.relative(root, target).split(path.sep).join('/');
        const targetZone = zoneOf(targetRel);
        if (targetZone && !ALLOWED[zone].includes(targetZone)) {
          problems.push(`${rel}: ${zone} may not import ${targetZone} (${targetRel})`);
        }
        const to = coreFolderOf(targetRel);
        if (from?.folder && to?.folder && from.folder !== to.folder) {
          if (to.rank > from.rank) problems.push(`${rel}: layer ${from.layer} may not import the higher layer ${to.layer} (${targetRel})`);
          if (!folderEdges.has(from.folder)) folderEdges.set(from.folder, new Map());
          if (!folderEdges.get(from.folder).has(to.folder)) folderEdges.get(from.folder).set(to.folder, `${rel} → ${targetRel}`);
        }
        if (!typeOnly) edges.push({ kind: 'file', target });
      } else {
        for (const re of FORBIDDEN_PACKAGES[zone] ?? []) {
          if (re.test(spec) && !(typeOnly && zone !== 'renderer' && zone !== 'common')) problems.push(`${rel}: ${zone} may not import "${spec}"`);
        }
        if (!typeOnly) edges.push({ kind: 'package', target: spec });
      }
    }
    graph.set(file, edges);
  }

  for (const loop of folderCycles(folderEdges)) {
    const inLoop = new Set(loop);
    const via = loop.flatMap((a) => [...(folderEdges.get(a) ?? [])].filter(([b]) => inLoop.has(b)).map(([, example]) => example));
    problems.push(`main/core folders import each other: ${loop.join(', ')} (${via.join('; ')})`);
  }

  // The hook client: every file under hooks/ that is not a test, followed through value imports.
  const hookEntries = files.filter((f) => zoneOf(path.relative(root, f).split(path.sep).join('/')) === 'hooks' && !/\.test\.tsx?$/.test(f));
  for (const entry of hookEntries) {
    const seen = new Set();
    const stack = [[entry, [path.relative(root, entry)]]];
    while (stack.length) {
      const [file, trail] = stack.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const edge of graph.get(file) ?? []) {
        if (edge.kind === 'package') {
          if (HOOK_HEAVY.some((re) => re.test(edge.target))) {
            problems.push(`hook client loads "${edge.target}" via ${[...trail].join(' → ')}`);
          }
        } else {
          stack.push([edge.target, [...trail, path.relative(root, edge.target)]]);
        }
      }
    }
  }

  if (problems.length) {
    process.stderr.write(`import boundaries: ${problems.length} problem(s)\n${[...new Set(problems)].map((p) => `  - ${p}`).join('\n')}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`import boundaries: ok (${graph.size} files)\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv[2] ? path.resolve(process.argv[2]) : path.dirname(path.dirname(fileURLToPath(import.meta.url))));
}
