import type { KiokuError } from '../../../../common/errors.js';
import type { UiError, UiResult } from '../../../../common/ui-contract.js';

/** A KiokuError as the UI receives it: code, message and hint, plus the UI's own reason and field when a handler set them. */
export function uiErrorOf(error: KiokuError): UiResult<never> {
  const out: UiError = { code: error.code, message: error.message };
  if (error.hint !== undefined) out.hint = error.hint;
  if (error.reason !== undefined) out.reason = error.reason;
  if (error.reasonValues !== undefined) out.reasonValues = error.reasonValues;
  if (error.field !== undefined) out.field = error.field;
  return { ok: false, error: out };
}

/**
 * Run a core call and tag what it throws with the UI's reason: core speaks to the CLI (its hints
 * name flags and commands); the handler knows which UI control the call came from.
 */
export function tagErrors<T>(run: () => T, tag: (error: KiokuError) => Pick<UiError, 'reason' | 'reasonValues' | 'field'> | undefined): T {
  try {
    return run();
  } catch (error) {
    throw retag(error, tag);
  }
}

export async function tagErrorsAsync<T>(
  run: () => Promise<T>,
  tag: (error: KiokuError) => Pick<UiError, 'reason' | 'reasonValues' | 'field'> | undefined,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw retag(error, tag);
  }
}

function retag(error: unknown, tag: (error: KiokuError) => Pick<UiError, 'reason' | 'reasonValues' | 'field'> | undefined): unknown {
  if (!(error instanceof Error) || error.name !== 'KiokuError') return error;
  const kioku = error as KiokuError;
  const extra = tag(kioku);
  if (!extra) return kioku;
  // KiokuError's fields are readonly for callers; the tag is set once, here, before it leaves main.
  return Object.assign(kioku, {
    reason: extra.reason ?? kioku.reason,
    reasonValues: extra.reasonValues ?? kioku.reasonValues,
    field: extra.field ?? kioku.field,
  });
}
