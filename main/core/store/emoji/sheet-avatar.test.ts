import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signedSheetCell } from './sheet-avatar.js';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

function assets(files: string[]): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-avatar-'));
  fs.mkdirSync(path.join(dir, 'emojis'));
  for (const file of files) fs.writeFileSync(path.join(dir, 'emojis', file), 'png');
  return dir;
}

describe('signedSheetCell', () => {
  it('is the happy cell of the newest sheet the signature names, once cut', () => {
    const home = assets([
      'engineer01-emotions-sheet.png',
      'engineer01-emotions-sheet-happy.png',
      'engineer01-emotions-sheet-2.png',
      'engineer01-emotions-sheet-2-happy.png',
    ]);
    const signature = '依心情選用 `~/roles/.assets/emojis/engineer01-emotions-sheet-2.png` 中對應表情';
    expect(signedSheetCell(home, 'ENGINEER01', signature)).toBe(path.join(home, 'emojis', 'engineer01-emotions-sheet-2-happy.png'));
  });

  it('is nothing for a sheet that is stored but not in the signature, or not cut, or another role’s', () => {
    const home = assets([
      'engineer01-emotions-sheet.png',
      'engineer01-emotions-sheet-2.png',
      'engineer01-emotions-sheet-2-happy.png',
      'muse01-emotions-sheet-happy.png',
    ]);
    expect(signedSheetCell(home, 'ENGINEER01', '🐆')).toBeUndefined();
    expect(signedSheetCell(home, 'ENGINEER01', 'see engineer01-emotions-sheet.png')).toBeUndefined();
    expect(signedSheetCell(home, 'MUSE01', 'see muse01-emotions-sheet.png')).toBeUndefined();
  });
});
