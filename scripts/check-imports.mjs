// Import-boundary check (ARCHITECTURE.md, STYLE.md "Process layering"): code is split by where
// it runs, and an import across the wrong line fails CI. Also checks that nothing the hook
// client loads, directly or through other modules, pulls in a native or heavy package.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.dirname(path.dirname(fileURLToPath(import.meta.url)));

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
const HOOK_HEAVY = [
  /^better-sqlite3$/,
  /^sharp$/,
  /^electron/,
  /^react/,
  /^chokidar$/,
  /^node-schedule$/,
  /^@secretlint\//,
  /^opencc-js/,
  /^tar$/,
  /^commander$/,
];

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
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
  const specs = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const typeOnly = /^\s*(?:;\s*)?(?:import|export)\s+type\s/.test(m[0]);
    specs.push({ spec: m[1] ?? m[2], typeOnly });
  }
  return specs;
}

function resolveRelative(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
  ];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

const zoneRoots = ZONES.map(([prefix]) => path.join(root, prefix)).filter((p) => fs.existsSync(p));
const files = [...new Set(zoneRoots.flatMap((dir) => walk(dir)))];
const problems = [];
const graph = new Map();

for (const file of files) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (/\.test\.tsx?$/.test(rel)) continue;
  const zone = zoneOf(rel);
  if (!zone) continue;
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
      if (!typeOnly) edges.push({ kind: 'file', target });
    } else {
      for (const re of FORBIDDEN_PACKAGES[zone] ?? []) {
        if (re.test(spec) && !(typeOnly && zone !== 'renderer' && zone !== 'common'))
          problems.push(`${rel}: ${zone} may not import "${spec}"`);
      }
      if (!typeOnly) edges.push({ kind: 'package', target: spec });
    }
  }
  graph.set(file, edges);
}

// The hook client: every file under hooks/ that is not a test, followed through value imports;
// and `memory recall`'s fast path (main/cli/recall-fast.ts), bundled the same way for the same reason.
const FAST_CLI_ENTRIES = ['main/cli/recall-fast.ts'].map((rel) => path.join(root, rel));
// Bundled apart and loaded only when no daemon answers (a recall from the index needs SQLite):
// not followed from the fast path, whose own bundle never contains it.
const LAZY_BUNDLES = ['main/cli/recall-direct-fast.ts'].map((rel) => path.join(root, rel));
const hookEntries = files.filter(
  (f) => (zoneOf(path.relative(root, f).split(path.sep).join('/')) === 'hooks' && !/\.test\.tsx?$/.test(f)) || FAST_CLI_ENTRIES.includes(f),
);
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
      } else if (!LAZY_BUNDLES.includes(edge.target)) {
        stack.push([edge.target, [...trail, path.relative(root, edge.target)]]);
      }
    }
  }
}

if (problems.length) {
  process.stderr.write(`import boundaries: ${problems.length} problem(s)\n${[...new Set(problems)].map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`import boundaries: ok (${graph.size} files)\n`);
