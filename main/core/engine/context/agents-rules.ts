import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { ownDir } from '../../platform/fs/own-dir.js';
import { textBlock, type ContextBlock } from './context-block.js';
import { languageOfRole, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * The AGENTS block (CTX-1): the shared rules every role follows, condensed, from exactly one
 * source file per language; a role file can only tighten them (ROLE-6).
 * Design notes: docs/design-notes.md, "main/core/engine/context/agents-rules.ts".
 */
const FILE_NAMES: Record<ContextLanguage, string> = { 'zh-TW': 'agents.zh-TW.md', en: 'agents.en.md' };
const MAINTAINER_NOTE = /^\s*<!--[\s\S]*?-->\s*/;

/** Found folders by where the walk started: a daemon asks at every SessionStart (0.16 ms of walking each). */
const foundResources = new Map<string, string>();

/**
 * The folder holding `agents/`. The code runs from source (main/core/engine/context), from dist/ and
 * from a bundled hook client (dist/hooks), so the resources folder is found by walking up from
 * this file instead of a fixed number of `..`.
 */
export function findResourcesDir(start = ownDir()): string | undefined {
  const known = foundResources.get(start);
  if (known !== undefined) return known;
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'resources');
    if (fs.existsSync(path.join(candidate, 'agents', FILE_NAMES['zh-TW']))) {
      foundResources.set(start, candidate);
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const cache = new Map<string, string>();

/** The rules text of one language, without the maintainers' comment. Read once per process. */
export function loadAgentsRules(language: ContextLanguage, resourcesDir = findResourcesDir()): string {
  if (!resourcesDir) {
    throw new KiokuError('NOT_FOUND', 'the shared behaviour rules (resources/agents/) were not found beside the Kioku code', {
      hint: 'reinstall Kioku; a packaged app must ship resources/agents/ outside the asar archive',
    });
  }
  const file = path.join(resourcesDir, 'agents', FILE_NAMES[language]);
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KiokuError('NOT_FOUND', `cannot read the shared behaviour rules ${file} (${(error as Error).message})`, {
      path: file,
      hint: 'reinstall Kioku',
    });
  }
  const rules = text
    .replace(/^\uFEFF/, '')
    .replace(MAINTAINER_NOTE, '')
    .trim();
  cache.set(file, rules);
  return rules;
}

export interface AgentsBlockOptions {
  memoryHome: string;
  roleHome: string;
  language?: ContextLanguage;
  /** The rules text to use instead of the shipped file (tests, a caller that already read it). */
  rules?: string;
  resourcesDir?: string;
}

/**
 * Our own three placeholders become the role's ID and the two homes, by split/join: no
 * `String.replace` (whose `$&` would reinterpret a home path) and nothing applied to user text,
 * which is never a template (DSH-7).
 */
export function fillAgentsRules(rules: string, values: { id: string; memoryHome: string; roleHome: string }): string {
  return rules.split('<ID>').join(values.id).split('<MEMORY_HOME>').join(values.memoryHome).split('<ROLE_HOME>').join(values.roleHome);
}

export function agentsBlock(role: { id: string; name: string; nature: string; vibe: string }, options: AgentsBlockOptions): ContextBlock {
  const language = options.language ?? languageOfRole(role);
  const rules = options.rules ?? loadAgentsRules(language, options.resourcesDir ?? findResourcesDir());
  return textBlock(fillAgentsRules(rules, { id: role.id, memoryHome: options.memoryHome, roleHome: options.roleHome }));
}
