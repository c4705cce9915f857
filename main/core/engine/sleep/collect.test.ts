import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeExisting, writeInbox } from '../../../../test/sleep/sleep-fixtures.js';
import { batchHeader, collectBatch, cutAtSentenceEnd, EXISTING_SHARE } from './collect.js';
import { MemoryCatalog } from './memory-catalog.js';

let home: TempHome;
afterEach(() => home?.cleanup());

function snapshot() {
  return new MemoryCatalog(home.memoryHome, ROLE).snapshot();
}

describe('collect', () => {
  it('takes the oldest items first, whole, within the item count, and says how many wait', () => {
    home = makeTempHome();
    // Written out of order: the created time decides, not the file name.
    writeInbox(home.memoryHome, { id: 'B', body: '第二則。', created: '2026-11-29T10:02:00+08:00' });
    writeInbox(home.memoryHome, { id: 'A', body: '第一則。', created: '2026-11-29T10:01:00+08:00' });
    writeInbox(home.memoryHome, { id: 'C', body: '第三則。', created: '2026-11-29T10:03:00+08:00' });
    const batch = collectBatch(ROLE, snapshot(), { items: 2, chars: 12_000, existing: 120 })!;
    expect(batch.items.map((item) => item.id)).toEqual(['A', 'B']);
    expect(batch.left).toBe(1);
    expect(batch.header).toContain('本批 2 則，另有 1 則留待下批');
    expect(batch.materialChars).toBeGreaterThan(batch.header.length);
    expect(collectBatch(ROLE, { inbox: [], consolidated: [], problems: [] }, { items: 4, chars: 12_000, existing: 120 })).toBeUndefined();
  });

  it('stops before an item that would pass the budget, keeping the share for existing memories', () => {
    home = makeTempHome();
    const body = '長'.repeat(300);
    for (let i = 1; i <= 4; i++) writeInbox(home.memoryHome, { id: `I${i}`, body, summary: 's', created: `2026-11-29T10:0${i}:00+08:00` });
    // 1000 chars: 700 for items → two items of ~301 fit, the third waits.
    const batch = collectBatch(ROLE, snapshot(), { items: 4, chars: 1000, existing: 120 })!;
    expect(EXISTING_SHARE).toBe(0.3);
    expect(batch.items.map((item) => item.id)).toEqual(['I1', 'I2']);
    expect(batch.items.every((item) => item.body === body)).toBe(true);
    expect(batch.header).toContain('本批 2 則，另有 2 則留待下批');
  });

  it('an item alone over the budget still goes, cut at a sentence end, and the header says so', () => {
    home = makeTempHome();
    const body = `${'第一句很長'.repeat(20)}。${'第二句'.repeat(200)}。`;
    writeInbox(home.memoryHome, { id: 'BIG', body, summary: 's' });
    writeInbox(home.memoryHome, { id: 'NEXT', body: '下一則。', created: '2026-11-29T11:00:00+08:00' });
    const batch = collectBatch(ROLE, snapshot(), { items: 4, chars: 500, existing: 120 })!;
    expect(batch.items.map((item) => item.id)).toEqual(['BIG']);
    expect(batch.items[0]!.body).toBe(`${'第一句很長'.repeat(20)}。`);
    expect(batch.header).toContain('內文已在句末截斷');
    expect(batch.left).toBe(1);
    expect(cutAtSentenceEnd('短句。', 10)).toBe('短句。');
    expect(cutAtSentenceEnd('沒有句號的一長串文字', 4)).toBe('沒有句號');
  });

  it('lists existing memories sharing tags or words first, then by priority and links; denied probes are marked', () => {
    home = makeTempHome();
    writeInbox(home.memoryHome, { id: 'I1', body: '部署前要清快取。', tags: ['部署'] });
    writeExisting(home.memoryHome, 'HIGH', { priority: 5, links: ['X', 'Y'] }, '完全無關的高優先記憶。');
    writeExisting(home.memoryHome, 'TAGGED', { priority: 1, tags: ['部署'] }, '另一件事。');
    writeExisting(home.memoryHome, 'WORDS', { priority: 1, summary: '清快取的方法' }, '清快取的方法。');
    writeExisting(home.memoryHome, 'LINKED', { priority: 5, links: ['X', 'Y', 'Z'] }, '也無關。');
    writeExisting(
      home.memoryHome,
      'DENIED',
      { category: 'daily', priority: 1, probe: 'denied', needs_correction: true, probe_note: '其實是週一' },
      '討厭早上開會。',
    );
    writeExisting(
      home.memoryHome,
      'DONE',
      { category: 'daily', priority: 1, probe: 'denied', probe_corrected: '2026-11-01' },
      '已更正過。',
    );
    const batch = collectBatch(ROLE, snapshot(), { items: 4, chars: 12_000, existing: 5 })!;
    expect(batch.existing.map((ref) => ref.id)).toEqual(['DENIED', 'TAGGED', 'WORDS', 'LINKED', 'HIGH']);
    expect(batch.existing[0]).toMatchObject({ needsCorrection: true, correctionNote: '其實是週一' });
    expect(batch.existing.find((ref) => ref.id === 'TAGGED')?.needsCorrection).toBeUndefined();
    expect(batch.existing[1]!.body).toBe('另一件事。');
    expect(batch.header).toBe(batchHeader(1, 0, 5, false));
  });

  it('skips unreadable inbox files and reports them instead of failing', () => {
    home = makeTempHome();
    writeInbox(home.memoryHome, { id: 'OK', body: '好的一則。' });
    const broken = writeInbox(home.memoryHome, { id: 'BAD', body: 'x' });
    fs.writeFileSync(broken, Buffer.from([0xff, 0xfe, 0x00]));
    const snap = snapshot();
    expect(snap.problems.map((p) => p.path)).toEqual([broken]);
    expect(collectBatch(ROLE, snap, { items: 4, chars: 12_000, existing: 120 })!.items.map((item) => item.id)).toEqual(['OK']);
  });
});
