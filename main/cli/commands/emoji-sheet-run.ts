import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../common/errors.js';
import { EMOJI_MOODS } from '../../../common/emoji-grid.js';
import {
  planSheetSave,
  saveSheet,
  type SavedSheet,
  type SheetSavePlan,
  type SheetSource,
} from '../../core/store/emoji/emoji-sheet-service.js';
import { storedSheetNameOf } from '../../core/store/emoji/emoji-sheet-files.js';
import { checkSheetByteSize, readSheetImage } from '../../core/store/emoji/sheet-image.js';
import { resolveRoleReference } from '../../core/store/roles/role-repository.js';
import type { CliContext } from '../cli-context.js';
import { askForConfirmation, promptYes } from './confirm-change.js';
import { renderTable } from './role-text-table.js';

/**
 * `kioku role emoji-sheet <ID> <image> [--crop]` (CLI.md, ROLE-10): store a 3×3 mood sheet,
 * optionally cut it in nine, and point the role's `## 簽名 emoji` section at it (ROLE-5 confirms).
 * Design notes: docs/design-notes.md, "main/cli/commands/emoji-sheet-run.ts".
 */

export interface EmojiSheetOptions {
  crop?: boolean;
  confirm?: string;
  json?: boolean;
}

const RESTART_REMINDER = 'Start a new assistant session to load it: SessionStart runs only when a session starts.';

async function sourceFor(ctx: CliContext, id: string, image: string): Promise<SheetSource> {
  const file = path.resolve(image);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new KiokuError('NOT_FOUND', `no image file ${file}`, { hint: 'give the path of the 3×3 mood sheet (PNG, JPEG or WebP)' });
  }
  if (!stat.isFile()) throw new KiokuError('BAD_USAGE', `${file} is not a file`, { hint: 'give the path of the 3×3 mood sheet image' });
  const stored = storedSheetNameOf(ctx.config.paths.assetsDir, id, file);
  if (stored) return { kind: 'stored', name: stored };
  checkSheetByteSize(stat.size, file);
  return { kind: 'new', image: await readSheetImage(fs.readFileSync(file), file) };
}

function signatureTable(plan: SheetSavePlan): string {
  const block = (text: string) => text || '(empty)';
  return [
    renderTable(['field', 'changed'], [['簽名 emoji (signature)', plan.change.changed ? 'yes' : 'no']], [24, 8]),
    '',
    'old:',
    block(plan.change.old).replace(/^(?=.)/gm, '  '),
    '',
    'new:',
    block(plan.change.new).replace(/^(?=.)/gm, '  '),
  ].join('\n');
}

function whatWillBeWritten(plan: SheetSavePlan): string[] {
  const lines = [
    `  sheet:    ${plan.sheetPath}${plan.storesSheet ? ` (new, ${plan.size.width}×${plan.size.height})` : ' (stored already)'}`,
  ];
  if (plan.cut) lines.push(`  cells:    9 PNGs (${EMOJI_MOODS.map((mood) => mood.id).join(', ')})`);
  lines.push(`  role:     ${plan.signature.paths.identity}${plan.change.changed ? '' : ' (unchanged)'}`);
  return lines;
}

function askToConfirmSheet(ctx: CliContext, plan: SheetSavePlan, json: boolean, reason: string): never {
  return askForConfirmation(ctx, {
    json,
    jsonReply: { confirmNeeded: true, id: plan.id, token: plan.token, sheet: plan.sheetPath, changes: [plan.change] },
    proposal: [
      `Role ${plan.signature.current.name} (${plan.id}) already has a signature emoji section. Proposed change:`,
      '',
      signatureTable(plan),
      '',
      'This would write:',
      ...whatWillBeWritten(plan),
    ],
    token: plan.token,
    reason,
  });
}

function report(ctx: CliContext, plan: SheetSavePlan, saved: SavedSheet, json: boolean): void {
  if (json) {
    ctx.printJson({
      action: 'saved',
      id: saved.id,
      sheet: saved.sheetPath,
      storedSheet: saved.storedSheet,
      width: plan.size.width,
      height: plan.size.height,
      grid: saved.gridFile ?? null,
      cells: saved.cells.map((file, index) => ({ mood: EMOJI_MOODS[index]!.id, name: EMOJI_MOODS[index]!.zh, path: file })),
      signatureChanged: saved.signatureChanged,
    });
    return;
  }
  const lines = [
    `Emoji sheet of ${plan.signature.current.name} (${saved.id}):`,
    `  sheet:    ${saved.sheetPath}${saved.storedSheet ? '' : ' (stored already)'}`,
  ];
  if (saved.gridFile) lines.push(`  grid:     ${saved.gridFile}`);
  saved.cells.forEach((file, index) => lines.push(`  ${EMOJI_MOODS[index]!.zh.padEnd(4, '　')}  ${file}`));
  lines.push(
    saved.signatureChanged
      ? `  signature: the 簽名 emoji section of ${plan.signature.paths.identity} now points at the sheet`
      : '  signature: already points at this sheet; unchanged',
  );
  if (!plan.cut) lines.push(`Cut it into nine PNGs with: kioku role emoji-sheet ${saved.id} ${saved.sheetPath} --crop`);
  if (saved.signatureChanged) lines.push(RESTART_REMINDER);
  ctx.print(lines.join('\n'));
}

export async function runEmojiSheet(ctx: CliContext, reference: string, image: string, options: EmojiSheetOptions): Promise<void> {
  const json = Boolean(options.json);
  const id = resolveRoleReference(ctx.config.paths.roleHome, reference);
  const plan = await planSheetSave(ctx.config, id, await sourceFor(ctx, id, image), { cut: Boolean(options.crop) });
  if (!plan.needsConfirm) return report(ctx, plan, await saveSheet(ctx.config, plan, undefined), json);
  if (options.confirm !== undefined) {
    if (options.confirm.trim().toLowerCase() === plan.token) return report(ctx, plan, await saveSheet(ctx.config, plan, plan.token), json);
    askToConfirmSheet(
      ctx,
      plan,
      json,
      `confirm token "${options.confirm}" does not match this change of role ${id} (the files, the image or the grid differ from when it was shown)`,
    );
  }
  if (ctx.interactive && !json) {
    ctx.print(
      [
        `Role ${plan.signature.current.name} (${id}) already has a signature emoji section. Proposed change:`,
        '',
        signatureTable(plan),
        '',
        'This would write:',
        ...whatWillBeWritten(plan),
        '',
      ].join('\n'),
    );
    if (await promptYes('Apply? [y/N] ')) return report(ctx, plan, await saveSheet(ctx.config, plan, plan.token), json);
    ctx.print('Nothing was written.');
    return;
  }
  askToConfirmSheet(ctx, plan, json, `role ${id}'s signature emoji section would be replaced and the change needs confirming`);
}
