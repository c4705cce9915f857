import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { EmojiSheetOptions } from './emoji-sheet-run.js';

/**
 * Registers `kioku role emoji-sheet` (CLI.md, ROLE-10). The work is in emoji-sheet-run.ts, loaded
 * only when the command runs: it brings sharp (native), which `kioku role list` must not pay for.
 */
export function registerEmojiSheetCommand(parent: Command, getContext: () => CliContext): void {
  parent
    .command('emoji-sheet')
    .description(
      "store a 3×3 mood emoji sheet for a role (PNG/JPEG/WebP), optionally cut it into 9 PNGs, and point the role's 簽名 emoji section at it",
    )
    .argument('<ID>', 'role ID (or display name)')
    .argument('<image>', "the sheet image; one of the role's stored sheets is cut again instead of stored twice")
    .option('--crop', "cut the nine moods into PNGs by the sheet's grid file, or the default 3×3 grid")
    .option('--confirm <TOKEN>', 'apply the change whose table showed this token')
    .option('--json', 'print one JSON object')
    .action(async (reference: string, image: string, options: EmojiSheetOptions) => {
      const { runEmojiSheet } = await import('./emoji-sheet-run.js');
      await runEmojiSheet(getContext(), reference, image, options);
    });
}
