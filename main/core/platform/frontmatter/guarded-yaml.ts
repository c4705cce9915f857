import yaml from 'js-yaml';

/**
 * The one YAML reader for text Kioku did not write itself (front matter, importers' files).
 *
 * Why anchors are refused (issue 14): js-yaml keeps an alias (`*name`) as a second reference to
 * the anchored node (`&name`), so nine lines of nine aliases each — a 400-byte "billion laughs" —
 * parse instantly into a value that is 9^9 strings wide once anything walks, joins or writes it
 * (`kioku status`, recall's write-back, the SessionStart hook ran out of heap). Kioku never writes
 * anchors (stringify-frontmatter.ts), and no alias can resolve without one (js-yaml throws
 * "unidentified alias" instead), so refusing every anchor removes all sharing: a parsed value is
 * then never larger than its text. Nesting is capped for the same reason (a value a few hundred
 * levels deep overflows the stack of whatever walks it).
 *
 * How: js-yaml's own parser reports each node it has read to `listener` ('close'), with the
 * anchor that node carried; the first anchored node stops the load. Nothing here reads YAML
 * syntax itself, so an `&` or `*` inside a quoted, plain or block scalar (`summary: R&D *重要*`)
 * is text, exactly as YAML says. Cost: a file without any `&` cannot hold an anchor and is loaded
 * without the listener (one `indexOf` per block: memory files are read on every load).
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
type NodeState = yaml.State & { anchor?: string | null };

function refuseAnchors(eventType: yaml.EventType, state: NodeState): void {
  if (eventType === 'close' && state.anchor !== null && state.anchor !== undefined) {
    throw new RefusedYamlError(`${ANCHORS_REFUSED} (found "&${state.anchor}")`);
  }
}

const PLAIN: yaml.LoadOptions = { schema: yaml.JSON_SCHEMA, maxDepth: MAX_YAML_DEPTH } as yaml.LoadOptions;
const GUARDED: yaml.LoadOptions = { ...PLAIN, listener: refuseAnchors };

/**
 * `yaml.load` with JSON_SCHEMA (dates stay the text they were written as), anchors refused and
 * nesting capped. Throws RefusedYamlError for an anchor, js-yaml's YAMLException for anything
 * that is not YAML (too deep included: callers read such text another way, as before).
 */
export function loadYamlGuarded(text: string): unknown {
  return yaml.load(text, text.includes('&') ? GUARDED : PLAIN);
}
