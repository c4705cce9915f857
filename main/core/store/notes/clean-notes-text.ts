import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';

export interface CleanedNotesText {
  text: string;
  /** True when what is stored differs from what was given (a secret masked, Simplified → Traditional). */
  changed: boolean;
  /** Script-guard warnings (ambiguous characters left as written). */
  warnings: string[];
}

/** What callers tell the user when cleaning changed the text: the write must never surprise them. */
export const CLEANED_NOTICE =
  '存入的內容與輸入不同：已遮蔽疑似密鑰，或把簡體字轉成繁體（PRIV-1/2）；請讀回確認。 (the stored text differs from the input: a secret was masked or Simplified Chinese converted; read it back to check)';

/** The PRIV-1/2 gate (redaction, then the script guard) for FACT.md, MEMORY.md and journal text. */
export async function cleanNotesText(text: string): Promise<CleanedNotesText> {
  const cleaned = await cleanForStorage(text);
  return { text: cleaned.text, changed: cleaned.text !== text, warnings: cleaned.warnings };
}
