/**
 * Role ID rules (ROLE-3), pure so the hook client, the renderer and core agree; IDs of existing
 * roles may be shorter than a new ID must be.
 * Design notes: docs/design-notes.md, "common/role-id.ts".
 */
export const ROLE_ID_PATTERN = /^[A-Z][A-Z0-9]{0,15}[0-9]{2}$/;
export const NEW_ROLE_ID_PATTERN = /^[A-Z][A-Z0-9]{3,15}[0-9]{2}$/;
export const ROLE_PREFIX_PATTERN = /^[A-Z][A-Z0-9]{3,15}$/;

/** A path-safe role ID an existing role may have (ENGINEER01, and seed-era YUI01). */
export function isValidRoleId(value: string): boolean {
  return ROLE_ID_PATTERN.test(value);
}

/** An ID Kioku may give a new role: prefix of 4–16 characters (ENGINEER01, not YUI01). */
export function isValidNewRoleId(value: string): boolean {
  return NEW_ROLE_ID_PATTERN.test(value);
}

export function isValidRolePrefix(value: string): boolean {
  return ROLE_PREFIX_PATTERN.test(value);
}

/**
 * Why a role ID is invalid, phrased for the user, or undefined when it is valid.
 * The suggestion (uppercase) is offered only when it would itself be valid.
 */
export function explainInvalidRoleId(value: string): string | undefined {
  if (isValidRoleId(value)) return undefined;
  const upper = value.toUpperCase();
  if (upper !== value && isValidRoleId(upper)) {
    return `role ID "${value}" must be uppercase, e.g. ${upper}`;
  }
  if (value.length === 0) return 'role ID is empty; use an uppercase prefix and two digits, e.g. ENGINEER01';
  if (/[^\x20-\x7e]/.test(value)) {
    return `role ID "${value}" has non-ASCII characters; a role ID is an English uppercase prefix plus two digits, e.g. ENGINEER01 (the display name may be in any language)`;
  }
  if (/[\s_\-/\\.]/.test(value)) {
    return `role ID "${value}" may not contain spaces, "_", "-", "/", "\\" or "."; use an uppercase prefix and two digits, e.g. ENGINEER01`;
  }
  if (!/[0-9]{2}$/.test(value)) {
    return `role ID "${value}" must end with a two-digit index, e.g. ${upper.replace(/[^A-Z0-9]/g, '') || 'ENGINEER'}01`;
  }
  return `role ID "${value}" is not valid: it needs uppercase letters or digits starting with a letter, then two digits, e.g. ENGINEER01`;
}

/** Why `value` cannot be the ID of a new role, or undefined when it can. */
export function explainInvalidNewRoleId(value: string): string | undefined {
  const problem = explainInvalidRoleId(value);
  if (problem) return problem;
  if (isValidNewRoleId(value)) return undefined;
  return `role ID "${value}" is too short for a new role: the prefix before the two digits needs 4–16 letters or digits (e.g. ${value.slice(0, -2)}X${value.slice(-2)} or ENGINEER01); shorter IDs are accepted only for roles that already exist`;
}

export function splitRoleId(id: string): { prefix: string; index: number } | undefined {
  if (!isValidRoleId(id)) return undefined;
  return { prefix: id.slice(0, -2), index: Number(id.slice(-2)) };
}
