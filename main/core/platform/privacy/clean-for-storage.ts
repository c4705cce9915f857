import { redact } from './redact.js';
import { guardScript } from './script-guard.js';

export interface CleanText {
  text: string;
  /** Script-guard warnings (ambiguous characters left as written). */
  warnings: string[];
}

/**
 * The one gate every text passes before it is written to a memory file, BONDS.md or DIGESTS.md:
 * secrets masked (PRIV-1), then Simplified turned into Traditional (PRIV-2). Redaction comes
 * first so that the script guard only ever sees placeholders, never a secret.
 */
export async function cleanForStorage(text: string): Promise<CleanText> {
  const guarded = await guardScript(await redact(text));
  return { text: guarded.text, warnings: guarded.warnings };
}
