import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readFacts } from '../../main/core/store/notes/facts-file.js';
import { searchJournal } from '../../main/core/store/notes/journal-search.js';
import { readJournal } from '../../main/core/store/notes/journal.js';
import { importDshHome } from '../../main/core/integrations/import/dsh-import.js';
import { readRoleDefinition } from '../../main/core/store/roles/role-repository.js';
import { makeTempHome, snapshotTree, type TempHome } from '../helpers/temp-home.js';

/**
 * X-IMPORT from the notes skill (dsh-persona-memory): the sample DSH_HOME in
 * test/fixtures/import/dsh-home has personas/<id>/{persona.yml,SOUL.md,USER.md},
 * memory/FACT.md and memory/JOURNAL.jsonl, written in Simplified Chinese as DSH users do.
 */
const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'import', 'dsh-home');

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function newHome(): TempHome {
  const home = makeTempHome({ KIOKU_NOW: '2026-08-10T12:00:00+08:00' });
  homes.push(home);
  return home;
}

/** A DSH home made in the test (copied from the fixture, then changed). */
function dshCopy(home: TempHome): string {
  const dir = path.join(home.root, 'dsh');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe('kioku import --from dsh', () => {
  it('imports twice with the same result: the second run changes nothing, byte for byte', async () => {
    const home = newHome();
    const config = home.config();
    const first = await importDshHome(config, FIXTURE);
    expect(first.changes).toBe(6); // 2 roles, FACT.md, 3 journal entries
    expect(first.conflicts).toEqual([]);
    const afterFirst = snapshotTree(home.root);
    const second = await importDshHome(config, FIXTURE);
    expect(snapshotTree(home.root)).toEqual(afterFirst);
    expect(second.changes).toBe(0);
    expect(second.roles.map((r) => [r.id, r.action])).toEqual([
      ['CODER01', 'exists'],
      ['LUMI01', 'exists'],
    ]);
    expect(second.facts?.action).toBe('unchanged');
    expect(second.journal).toMatchObject({ added: 0, existing: 3, corrupt: 1 });
  });

  it('maps persona.yml, SOUL.md and USER.md onto the role (the documented table), in Traditional Chinese', async () => {
    const home = newHome();
    const config = home.config();
    const report = await importDshHome(config, FIXTURE);
    const lumi = readRoleDefinition(config.paths.roleHome, 'LUMI01');
    expect(lumi).toMatchObject({ name: '露米', emoji: '🌙', preamble: '溫柔細心的研究助理，陪用戶整理資料。' });
    expect(lumi.nature).toBe('溫柔細心的研究助理，擅長把零散資料整理成結論。\n遇到不確定的事會先說明不確定。');
    expect(lumi.vibe).toBe('句子短、語氣溫和，偶爾開個小玩笑。');
    expect(lumi.extraSections.map((s) => [s.origin, s.heading])).toEqual([
      ['identity', '使用者（user）'],
      ['soul', '邊界與規範'],
    ]);
    expect(lumi.extraSections[0]!.body).toContain('- 用戶叫阿明，是後端工程師。');
    expect(lumi.source).toBe(''); // a fill-in placeholder: DSH has no source, Kioku does not invent one
    expect(report.roles.find((r) => r.id === 'LUMI01')!.cleaned).toBe(true);

    // SOUL.md without sections: its text is the nature; the vibe says it is missing instead of guessing.
    const coder = readRoleDefinition(config.paths.roleHome, 'CODER01');
    expect(coder.nature).toBe(fs.readFileSync(path.join(FIXTURE, 'personas/coder/SOUL.md'), 'utf8').trim());
    expect(coder.nature).toContain('{{project}}'); // DSH-7: user text is never a template
    expect(coder.vibe).toMatch(/does not make one up/);
    expect(coder.extraFields.imported_from).toBe('dsh:coder');

    expect(readFacts(config.paths).text).toBe('- 用戶偏好繁體中文回答\n- 主要開發語言：TypeScript 與 Go\n- 部署在 Debian 12 上\n');
    const journal = readJournal(config.paths.journalFile);
    // Journal times are shown on the user's clock (issue 11): compared as instants, in any zone.
    const instant = (ts: string) => new Date(ts).getTime();
    expect(journal.entries.map((e) => [instant(e.ts), e.tags, e.text])).toEqual([
      [instant('2026-06-01T10:00:00+08:00'), ['部署'], '把 staging 遷移到新的 VM，DNS 要等一天生效。'],
      [instant('2026-06-02T15:30:00+08:00'), ['debug', 'CI'], 'CI 偶發失敗的原因是測試共用了同一個臨時目錄。'],
      [instant('2026-06-03T09:00:00+08:00'), [], 'Decided to keep the monorepo; revisit in Q4.'],
    ]);
    // Every imported journal entry is found by the journal search, by a Chinese phrase as typed in DSH too.
    expect((await searchJournal(config.paths.journalFile, { query: '临时目录' })).entries.map((e) => instant(e.ts))).toEqual([
      instant('2026-06-02T15:30:00+08:00'),
    ]);
    expect((await searchJournal(config.paths.journalFile, { query: 'DNS 生效' })).entries.map((e) => instant(e.ts))).toEqual([
      instant('2026-06-01T10:00:00+08:00'),
    ]);
    expect((await searchJournal(config.paths.journalFile, { query: 'monorepo' })).entries).toHaveLength(1);
    const skipped = report.skipped.map((s) => s.source);
    expect(skipped).toEqual(
      expect.arrayContaining(['personas/README.md', 'personas/skills', 'memory/snapshots', 'memory/JOURNAL.jsonl#L3']),
    );
  });

  it('appends only journal entries that are not there yet, after the ones already written', async () => {
    const home = newHome();
    const config = home.config();
    const dsh = dshCopy(home);
    await importDshHome(config, dsh);
    fs.appendFileSync(path.join(dsh, 'memory', 'JOURNAL.jsonl'), '{"ts":"2026-06-04T08:00:00+08:00","tags":["新"],"text":"新增的一条"}\n');
    const again = await importDshHome(config, dsh);
    expect(again.journal).toMatchObject({ added: 1, existing: 3 });
    expect(again.changes).toBe(1);
    expect(
      readJournal(config.paths.journalFile)
        .entries.map((e) => e.text)
        .at(-1),
    ).toBe('新增的一條');
  });

  it('an existing, different FACT.md is a conflict and is left byte-identical; the rest is still imported', async () => {
    const home = newHome();
    const config = home.config();
    fs.writeFileSync(config.paths.factsFile, '- 我自己的事實\n');
    const report = await importDshHome(config, FIXTURE);
    expect(report.facts?.action).toBe('conflict');
    expect(report.conflicts.join('\n')).toMatch(/already holds other facts; it was left as it is/);
    expect(fs.readFileSync(config.paths.factsFile, 'utf8')).toBe('- 我自己的事實\n');
    expect(report.roles.map((r) => r.action)).toEqual(['create', 'create']);
  });

  it('a FACT.md over 100 lines or 8000 bytes is refused whole (never truncated); 100 lines is accepted', async () => {
    const over = newHome();
    const dsh = dshCopy(over);
    const facts = path.join(dsh, 'memory', 'FACT.md');
    fs.writeFileSync(facts, Array.from({ length: 101 }, (_, i) => `事實 ${i + 1}`).join('\n') + '\n');
    const refused = await importDshHome(over.config(), dsh);
    expect(refused.facts).toMatchObject({ action: 'refused', usage: { lines: 101, over: ['lines'] } });
    expect(refused.conflicts.join('\n')).toMatch(/101 lines \(limit 100\)/);
    expect(fs.existsSync(over.config().paths.factsFile)).toBe(false);

    fs.writeFileSync(facts, `${'字'.repeat(2667)}\n`); // 8001 + 1 bytes
    expect((await importDshHome(over.config(), dsh)).facts).toMatchObject({ action: 'refused', usage: { over: ['bytes'] } });
    expect(fs.existsSync(over.config().paths.factsFile)).toBe(false);

    const exact = newHome();
    const dshExact = dshCopy(exact);
    const hundred = Array.from({ length: 100 }, (_, i) => `事實 ${i + 1}`).join('\n') + '\n';
    fs.writeFileSync(path.join(dshExact, 'memory', 'FACT.md'), hundred);
    expect((await importDshHome(exact.config(), dshExact)).facts?.action).toBe('create');
    expect(fs.readFileSync(exact.config().paths.factsFile, 'utf8')).toBe(hundred);
  });

  it('--dry-run writes nothing and lists what a real run does', async () => {
    const home = newHome();
    const config = home.config();
    const before = snapshotTree(home.root);
    const dry = await importDshHome(config, FIXTURE, { dryRun: true });
    expect(snapshotTree(home.root)).toEqual(before);
    const real = await importDshHome(config, FIXTURE);
    const plan = (r: typeof dry) => ({
      roles: r.roles.map((x) => [x.id, x.action, x.madeActive]),
      facts: r.facts?.action,
      journal: r.journal?.added,
      changes: r.changes,
    });
    expect(plan(dry)).toEqual(plan(real));
  });

  it('a folder that is not a DSH home is refused with what to give instead', async () => {
    const home = newHome();
    const notDsh = path.join(home.root, 'not-dsh');
    fs.mkdirSync(path.join(notDsh, 'notes'), { recursive: true });
    await expect(importDshHome(home.config(), notDsh)).rejects.toThrow(
      /does not look like a DSH_HOME: it has neither personas\/ nor memory\//,
    );
  });
});
