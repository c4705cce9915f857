import type { EventType, LoadOptions, State } from 'js-yaml';
import { ownRequire } from '../fs/own-require.js';

/**
 * The one YAML reader for text Kioku did not write itself (front matter, importers' files).
 * Design notes: docs/design-notes.md, "main/core/platform/frontmatter/guarded-yaml.ts".
 */
export class RefusedYamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedYamlError';
  }
}

export function isRefusedYaml(error: unknown): error is RefusedYamlError {
  return error instanceof RefusedYamlError;
}

/** Deeper than any memory or role field; js-yaml's own default (100) is for documents in general. */
export const MAX_YAML_DEPTH = 32;

const ANCHORS_REFUSED =
  'its front matter uses a YAML anchor (&name), which Kioku refuses: anchors and aliases (*name) let a few hundred bytes expand into gigabytes. ' +
  'Write each value out in full, or quote a value that starts with "&" or "*"';

/** The parser's state at a node's 'close'; `anchor` is not in @types/js-yaml but is js-yaml's own field. */
type NodeState = State & { anchor?: string | null };

function refuseAnchors(eventType: EventType, state: NodeState): void {
  if (eventType === 'close' && state.anchor !== null && state.anchor !== undefined) {
    throw new RefusedYamlError(`${ANCHORS_REFUSED} (found "&${state.anchor}")`);
  }
}

type JsYaml = typeof import('js-yaml');
let loaded: { yaml: JsYaml; plain: LoadOptions; guarded: LoadOptions } | undefined;

/**
 * js-yaml, when first needed. Required, not imported: in the hook's CommonJS fallback bundle
 * (scripts/build-hooks.mjs) esbuild then evaluates it on this first call instead of at every
 * start — it is a quarter of that bundle, and a SessionStart from a prepared load with its roles'
 * parses kept (store/roles/parsed-roles-file.ts) reads no YAML at all: about 2 ms of each (issue
 * 17). Run from source or an ESM bundle (the tests' children), the same package comes through
 * createRequire (own-require.ts).
 */
function jsYaml(): NonNullable<typeof loaded> {
  if (!loaded) {
    // A CommonJS module's own `require` only: an ESM bundle's is esbuild's shim, which throws for a package left external.
    const commonJs = typeof require === 'function' && typeof module === 'object';
    const yaml = (commonJs ? require('js-yaml') : ownRequire()('js-yaml')) as JsYaml;
    const plain = { schema: yaml.JSON_SCHEMA, maxDepth: MAX_YAML_DEPTH } as LoadOptions;
    loaded = { yaml, plain, guarded: { ...plain, listener: refuseAnchors } };
  }
  return loaded;
}

/**
 * `yaml.load` with JSON_SCHEMA (dates stay the text they were written as), anchors refused and
 * nesting capped. Throws RefusedYamlError for an anchor, js-yaml's YAMLException for anything
 * that is not YAML (too deep included: callers read such text another way, as before).
 */
export function loadYamlGuarded(text: string): unknown {
  const { yaml, plain, guarded } = jsYaml();
  return yaml.load(text, text.includes('&') ? guarded : plain);
}
