import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { fixedClock } from '../../platform/config/clock.js';
import { appendDigest, DIGESTS_KEPT, digestsFile, readDigests } from './digests.js';

const ROLE = 'TESTER01';
let home: TempHome;
beforeEach(() => {
  home = makeTempHome();
});
afterEach(() => home.cleanup());

const at = (minute: number) => ({ ...home.config(), clock: fixedClock(new Date(Date.UTC(2026, 11, 1, 0, minute))) });

describe('DIGESTS.md (MEM-10)', () => {
  it('records time, summary and applied counts, newest first', async () => {
    await appendDigest(at(0), ROLE, { summary: '第一次整理', applied: { created: 3, merged: 1 } });
    await appendDigest(at(1), ROLE, { summary: '第二次整理\n## 這行不是新的一則', applied: { created: 0, forgotten: 2 } });
    const digests = readDigests(home.memoryHome, ROLE);
    expect(digests.map((d) => d.summary)).toEqual(['第二次整理\n## 這行不是新的一則', '第一次整理']);
    expect(digests[0]?.applied).toEqual({ created: 0, forgotten: 2 });
    expect(digests[1]?.applied).toEqual({ created: 3, merged: 1 });
    expect(digests[0]!.time > digests[1]!.time).toBe(true);
    expect(fs.readFileSync(digestsFile(home.memoryHome, ROLE), 'utf8')).toMatch(/^# 整理摘要/);
  });

  it(`keeps the last ${DIGESTS_KEPT}`, async () => {
    for (let i = 0; i < DIGESTS_KEPT + 3; i++) await appendDigest(at(i), ROLE, { summary: `第 ${i} 次`, applied: { created: i } });
    const digests = readDigests(home.memoryHome, ROLE);
    expect(digests).toHaveLength(DIGESTS_KEPT);
    expect(digests[0]?.summary).toBe(`第 ${DIGESTS_KEPT + 2} 次`);
    expect(digests.at(-1)?.summary).toBe('第 3 次');
    expect(readDigests(home.memoryHome, ROLE, 2).map((d) => d.applied.created)).toEqual([DIGESTS_KEPT + 2, DIGESTS_KEPT + 1]);
  });

  it('cleans the summary like any stored text', async () => {
    const { entry } = await appendDigest(at(0), ROLE, { summary: '整理以后发现 password=hunter2', applied: {} });
    expect(entry.summary).toBe('整理以後發現 password=[REDACTED:secret]');
  });

  it('keeps the record and the reason of an entry, and reads older entries without them as before', async () => {
    fs.mkdirSync(`${home.memoryHome}/${ROLE}`, { recursive: true });
    fs.writeFileSync(
      digestsFile(home.memoryHome, ROLE),
      '# 整理摘要（DIGESTS）\n\n## 2026/11/29 03:00:12\n舊的一則。\n- applied: created 1\n',
    );
    await appendDigest(at(0), ROLE, {
      summary: '補做的整理',
      applied: { created: 2 },
      record: 'plan:20261201-0800-ab12cd34',
      reason: 'catch-up',
    });
    // A record that is not one of ours is not written (it would not be read back as one).
    await appendDigest(at(1), ROLE, { summary: '手動', applied: {}, record: '../../etc/passwd', reason: 'Manual Run' });
    const [manual, catchUp, old] = readDigests(home.memoryHome, ROLE);
    expect(catchUp).toEqual({
      time: expect.any(String),
      summary: '補做的整理',
      applied: { created: 2 },
      record: 'plan:20261201-0800-ab12cd34',
      reason: 'catch-up',
    });
    expect(manual).toEqual({ time: expect.any(String), summary: '手動', applied: {} });
    expect(old).toEqual({ time: '2026/11/29 03:00:12', summary: '舊的一則。', applied: { created: 1 } });
    expect(fs.readFileSync(digestsFile(home.memoryHome, ROLE), 'utf8')).toContain(
      '- record: plan:20261201-0800-ab12cd34\n- reason: catch-up\n',
    );
  });
});
