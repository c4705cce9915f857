/**
 * Call by name (CALL-1).
 * Design notes: docs/design-notes.md, "main/core/engine/role-call/match-role-call.ts".
 */
export interface CallableRole {
  id: string;
  name: string;
  aliases: readonly string[];
}

export type CallVia = 'id' | 'name' | 'alias';

export interface RoleCallMatch {
  roleId: string;
  /** The text that made the call, as typed, `@` included. */
  matched: string;
  via: CallVia;
  /** True when the call used an `@` marker. */
  marker: boolean;
  /** The rest of the message after the name. */
  rest: string;
}

export interface MatchOptions {
  markerOnly?: boolean;
}

/** Display names beat aliases on a tie (as `role use` resolves names, role-repository.ts). */
const VIA_RANK: Record<CallVia, number> = { id: 0, name: 1, alias: 2 };
const MARKERS = new Set(['@', '\uFF20']);
const ASCII_WORD_END = /[A-Za-z0-9]$/;
const ASCII_WORD_START = /^[A-Za-z0-9]/;

interface Candidate {
  roleId: string;
  length: number;
  via: CallVia;
}

function callTokens(role: CallableRole): { text: string; via: CallVia }[] {
  const tokens: { text: string; via: CallVia }[] = [
    { text: role.id, via: 'id' },
    { text: role.name, via: 'name' },
  ];
  for (const alias of role.aliases) tokens.push({ text: alias, via: 'alias' });
  return tokens.map((token) => ({ text: token.text.trim().normalize('NFC'), via: token.via })).filter((token) => token.text !== '');
}

/** Whether `body` starts with `token` as a whole word (see the ASCII rule above). */
function startsWithName(body: string, token: string): boolean {
  if (body.length < token.length) return false;
  if (body.slice(0, token.length).toLowerCase() !== token.toLowerCase()) return false;
  return !(ASCII_WORD_END.test(token) && ASCII_WORD_START.test(body.slice(token.length)));
}

/** The only cheap test that needs no role names: with markerOnly, no `@` means no call. */
export function couldBeCall(prompt: string, options: MatchOptions = {}): boolean {
  const text = prompt.replace(/^\s+/u, '');
  if (text === '') return false;
  return !options.markerOnly || MARKERS.has(text[0]!);
}

export function matchRoleCall(prompt: string, roles: readonly CallableRole[], options: MatchOptions = {}): RoleCallMatch | undefined {
  const text = prompt.normalize('NFC').replace(/^\s+/u, '');
  if (!couldBeCall(text, options)) return undefined;
  const marker = MARKERS.has(text[0]!);
  const body = marker ? text.slice(1) : text;

  const candidates: Candidate[] = [];
  for (const role of roles) {
    for (const token of callTokens(role)) {
      if (startsWithName(body, token.text)) candidates.push({ roleId: role.id, length: token.text.length, via: token.via });
    }
  }
  if (candidates.length === 0) return undefined;
  candidates.sort((a, b) => b.length - a.length || VIA_RANK[a.via] - VIA_RANK[b.via]);
  const best = candidates[0]!;
  // Two roles sharing the very same name: guessing would put one role's words in the other's
  // memory, so no switch; the user can still call by `@ID`.
  const rival = candidates.find((c) => c.roleId !== best.roleId && c.length === best.length && c.via === best.via);
  if (rival) return undefined;
  return {
    roleId: best.roleId,
    matched: (marker ? text[0]! : '') + body.slice(0, best.length),
    via: best.via,
    marker,
    rest: body.slice(best.length),
  };
}
