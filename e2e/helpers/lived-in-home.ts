import fs from 'node:fs';
import path from 'node:path';
import type { TempHome } from '../../test/helpers/temp-home.js';
import { CONSOLIDATED, INBOX, ROLE, writeHistory, writeSamples } from './memory-home.js';
import { seedSampleRoles } from './seed-home.js';

/**
 * Every view with something in it, for the accessibility and small-window specs: the five sample
 * roles, the engineer's two months of memories with digests and bonds, a journal and FACT.md.
 */
export function seedLivedInHome(home: TempHome): void {
  seedSampleRoles(home);
  // The sample roles' memories have no `created`, so their file time stands in: make it the day
  // they were seeded, not the day the spec runs (the timeline and its pictures do not drift).
  const seeded = new Date('2026-11-28T21:30:00+08:00');
  for (const file of fs.readdirSync(home.memoryHome, { recursive: true, encoding: 'utf8' })) {
    if (/(^|\/)2026\d{4}-[^/]*\.md$/.test(file)) fs.utimesSync(path.join(home.memoryHome, file), seeded, seeded);
  }
  writeSamples(home, ROLE, [...CONSOLIDATED, ...INBOX]);
  writeHistory(home, ROLE);
  fs.writeFileSync(
    path.join(home.memoryHome, 'JOURNAL.jsonl'),
    [
      { ts: '2026-11-28T09:12:00+08:00', tags: ['會議'], text: '和設計師討論了新版設定頁，決定把環境變數設定的項目標成唯讀。' },
      { ts: '2026-11-29T21:40:00+08:00', tags: ['生活', '咖啡'], text: '換了新的手沖濾杯，水溫 92 度比較不苦。' },
    ]
      .map((entry) => JSON.stringify(entry))
      .join('\n') + '\n',
  );
  fs.writeFileSync(path.join(home.memoryHome, 'FACT.md'), '使用者住在台北，時區 Asia/Taipei。\n回覆一律使用繁體中文（台灣）。\n');
}
