/**
 * Eight hex digits for names that must not collide but need not be secret: temp files beside a
 * write, spool entries. The pid in those names already tells processes apart; these 32 bits tell
 * one process's writes apart, and a reused pid's from a crashed one's leftovers.
 *
 * Math.random, not node:crypto: loading crypto is about 8 ms of a hook answering without the
 * daemon (issue 17), and every such hook writes a file or two.
 */
export function uniqueHex(): string {
  return Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
}
