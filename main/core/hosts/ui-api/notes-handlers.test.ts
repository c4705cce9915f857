import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  NotesSaved,
  FactsView,
  JournalAppended,
  JournalSearchView,
  JournalTags,
  KnownProjects,
  MindmapView,
  ProjectMemoryView,
} from '../../../../common/ui-contract.js';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { bytesOf, linesText, startTestApi, writeFile, type TestApi } from '../../../../test/helpers/web-api.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

async function start(options: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  api = await startTestApi(options);
  return api;
}

describe('facts.read / facts.update (DSH-1)', () => {
  it('reads a missing FACT.md as empty, and saves exactly 100 lines', async () => {
    const { value, home } = await start();
    const empty = await value<FactsView>('facts.read', {});
    expect(empty).toMatchObject({ exists: false, text: '', usage: { lines: 0, maxLines: 100, bytes: 0, maxBytes: 8000, over: [] } });
    const text = linesText(100);
    const saved = await value<NotesSaved<FactsView>>('facts.update', { text, revision: empty.revision });
    expect(saved.created).toBe(true);
    expect(saved.view.usage).toMatchObject({ lines: 100, over: [] });
    expect(fs.readFileSync(path.join(home.memoryHome, 'FACT.md'), 'utf8')).toBe(text);
    expect(saved.view.revision).not.toBe(empty.revision);
  });

  it('refuses a 101st line and leaves the file as it was', async () => {
    const { value, call, home } = await start();
    const file = path.join(home.memoryHome, 'FACT.md');
    writeFile(file, linesText(100));
    const before = bytesOf(file);
    const read = await value<FactsView>('facts.read', {});
    const refused = await call('facts.update', { text: linesText(101), revision: read.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'LIMIT_EXCEEDED' } });
    if (!refused.ok) {
      expect(refused.error.message).toContain('101 lines (limit 100)');
      expect(refused.error.hint).toContain('journal');
    }
    expect(bytesOf(file)).toBe(before);
  });

  it('refuses over 8000 UTF-8 bytes even under 100 lines (Chinese is 3 bytes a character)', async () => {
    const { value, call, home } = await start();
    const read = await value<FactsView>('facts.read', {});
    const refused = await call('facts.update', { text: `${'記'.repeat(2700)}\n`, revision: read.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'LIMIT_EXCEEDED' } });
    if (!refused.ok) expect(refused.error.message).toContain('8101 UTF-8 bytes (limit 8000)');
    expect(fs.existsSync(path.join(home.memoryHome, 'FACT.md'))).toBe(false);
  });

  it('never overwrites an edit made elsewhere after the editor opened the file', async () => {
    const { value, call, home } = await start();
    const file = path.join(home.memoryHome, 'FACT.md');
    writeFile(file, '使用者住在台北\n');
    const read = await value<FactsView>('facts.read', {});
    writeFile(file, '使用者住在台北\n使用者養了一隻貓\n');
    const refused = await call('facts.update', { text: '使用者住在高雄\n', revision: read.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRM_NEEDED' } });
    expect(fs.readFileSync(file, 'utf8')).toBe('使用者住在台北\n使用者養了一隻貓\n');
  });

  it('refuses an empty text (clearing is deleting the file) and a revision it never gave', async () => {
    const { value, call } = await start();
    const read = await value<FactsView>('facts.read', {});
    expect(await call('facts.update', { text: '  \n', revision: read.revision })).toMatchObject({
      ok: false,
      error: { code: 'BAD_USAGE' },
    });
    expect(await call('facts.update', { text: 'x', revision: '../etc' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('projectMemory.* (DSH-2)', () => {
  it('reports a missing MEMORY.md without creating it, and creates it only when asked', async () => {
    const { value, call, home } = await start();
    const project = path.join(home.root, '專案甲');
    fs.mkdirSync(project);
    const file = path.join(project, 'MEMORY.md');
    const read = await value<ProjectMemoryView>('projectMemory.read', { project });
    expect(read).toMatchObject({ project, path: file, exists: false, text: '', usage: { chars: 0, maxChars: 8000, over: false } });
    expect(fs.existsSync(file)).toBe(false);

    const refused = await call('projectMemory.update', { project, text: '# 專案慣例\n', revision: read.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(fs.existsSync(file)).toBe(false);

    const created = await value<NotesSaved<ProjectMemoryView>>('projectMemory.update', {
      project,
      text: '# 專案慣例\n- 用 pnpm\n',
      revision: read.revision,
      create: true,
    });
    expect(created).toMatchObject({ created: true, view: { exists: true, usage: { chars: 15 } } });
    expect(fs.readFileSync(file, 'utf8')).toBe('# 專案慣例\n- 用 pnpm\n');
  });

  it('refuses over 8000 characters with a pointer to the journal, the file unchanged', async () => {
    const { value, call, home } = await start();
    const project = path.join(home.root, 'proj');
    writeFile(path.join(project, 'MEMORY.md'), '舊內容\n');
    const read = await value<ProjectMemoryView>('projectMemory.read', { project });
    const refused = await call('projectMemory.update', { project, text: '字'.repeat(8001), revision: read.revision });
    expect(refused).toMatchObject({ ok: false, error: { code: 'LIMIT_EXCEEDED' } });
    if (!refused.ok) expect(refused.error.hint).toContain('journal');
    expect(fs.readFileSync(path.join(project, 'MEMORY.md'), 'utf8')).toBe('舊內容\n');
    // Exactly at the limit is fine.
    await value('projectMemory.update', { project, text: '字'.repeat(8000), revision: read.revision });
  });

  it('takes ~/… and refuses paths that are not existing folders', async () => {
    const { value, call, home } = await start();
    fs.mkdirSync(path.join(home.root, 'work'));
    expect((await value<ProjectMemoryView>('projectMemory.read', { project: '~/work' })).project).toBe(path.join(home.root, 'work'));
    expect(await call('projectMemory.read', { project: path.join(home.root, 'nope') })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    writeFile(path.join(home.root, 'file.txt'), 'x');
    expect(await call('projectMemory.read', { project: path.join(home.root, 'file.txt') })).toMatchObject({
      ok: false,
      error: { code: 'BAD_USAGE' },
    });
    expect(await call('projectMemory.read', { project: 'relative/dir' })).toMatchObject({ ok: false, error: { code: 'BAD_USAGE' } });
  });

  it('offers the folders of the role locks’ and recent Claude Code transcripts', async () => {
    const { value, home } = await start();
    const locked = path.join(home.root, 'locked-project');
    const recent = path.join(home.root, 'recent-project');
    fs.mkdirSync(locked);
    writeFile(path.join(recent, 'MEMORY.md'), '# x\n');
    const lockTranscript = path.join(home.root, 'transcripts', 'a.jsonl');
    writeFile(lockTranscript, `{"type":"summary"}\n${JSON.stringify({ type: 'user', cwd: locked, sessionId: 'a' })}\n`);
    writeFile(
      path.join(home.roleHome, '.locks', 'ENGINEER01.lock'),
      JSON.stringify({
        role: 'ENGINEER01',
        sessionKey: 'a',
        transcriptPath: lockTranscript,
        assistant: 'claude',
        since: '2026-03-04T09:00:00+08:00',
      }),
    );
    writeFile(path.join(home.root, '.claude', 'projects', '-recent-project', 's.jsonl'), `${JSON.stringify({ cwd: recent })}\n`);
    // A transcript whose folder is gone is not offered.
    writeFile(
      path.join(home.root, '.claude', 'projects', '-gone', 's.jsonl'),
      `${JSON.stringify({ cwd: path.join(home.root, 'gone') })}\n`,
    );
    const { projects } = await value<KnownProjects>('projectMemory.projects', {});
    const byPath = new Map(projects.map((p) => [p.path, p]));
    expect(byPath.get(locked)).toMatchObject({ source: 'lock', hasMemory: false });
    expect(byPath.get(recent)).toMatchObject({ source: 'transcript', hasMemory: true });
    expect(byPath.has(path.join(home.root, 'gone'))).toBe(false);
  });
});

describe('journal.* (DSH-3)', () => {
  it('appends with cleaned tags and finds entries by Chinese substring and by tag, newest first', async () => {
    const { value, home } = await start({ env: { KIOKU_NOW: '2026-03-04T10:00:00+08:00' } });
    const first = await value<JournalAppended>('journal.append', {
      text: '今天的部署流程改了：先跑 smoke test',
      tags: ['#部署', ' 上線 ', '部署'],
    });
    expect(first.entry).toMatchObject({ tags: ['部署', '上線'], text: '今天的部署流程改了：先跑 smoke test', line: 1 });
    expect(Date.parse(first.entry.ts)).toBe(Date.parse('2026-03-04T10:00:00+08:00'));
    await value('journal.append', { text: '午餐吃了牛肉麵', tags: ['生活'] });
    await value('journal.append', { text: '部署後記得看錯誤率', tags: ['部署'] });
    expect(fs.readFileSync(path.join(home.memoryHome, 'JOURNAL.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);

    const found = await value<JournalSearchView>('journal.search', { query: '部署', limit: 50 });
    expect(found.entries.map((e) => e.text)).toEqual(['部署後記得看錯誤率', '今天的部署流程改了：先跑 smoke test']);
    expect(found).toMatchObject({ matched: 2, total: 3, corrupt: 0 });

    const byTag = await value<JournalSearchView>('journal.search', { tag: '生活', limit: 50 });
    expect(byTag.entries.map((e) => e.text)).toEqual(['午餐吃了牛肉麵']);
    const limited = await value<JournalSearchView>('journal.search', { limit: 1 });
    expect(limited).toMatchObject({ matched: 3, entries: [{ text: '部署後記得看錯誤率', line: 3 }] });
    expect(await value<JournalTags>('journal.tags', {})).toEqual({
      tags: [
        { tag: '部署', count: 2 },
        { tag: '上線', count: 1 },
        { tag: '生活', count: 1 },
      ],
      total: 3,
    });
  });

  it('gives an epoch or UTC ts (seed-002 tooling) in local ISO like the entries Kioku writes (issue 11)', async () => {
    const at = new Date(Date.UTC(2026, 2, 9, 18, 30, 0));
    const { value } = await start({
      prepare: (home) =>
        writeFile(
          path.join(home.memoryHome, 'JOURNAL.jsonl'),
          `${JSON.stringify({ ts: at.getTime(), tags: [], text: '毫秒' })}\n${JSON.stringify({ ts: at.toISOString(), tags: [], text: 'UTC' })}\n`,
        ),
    });
    const found = await value<JournalSearchView>('journal.search', { limit: 50 });
    expect(found.entries.map((e) => e.ts)).toEqual([formatLocalIso(at), formatLocalIso(at)]);
  });

  it('refuses an empty entry and writes nothing', async () => {
    const { call, home } = await start();
    expect(await call('journal.append', { text: '   ', tags: [] })).toMatchObject({ ok: false, error: { code: 'BAD_USAGE' } });
    expect(fs.existsSync(path.join(home.memoryHome, 'JOURNAL.jsonl'))).toBe(false);
  });
});

describe('mindmap.get (PM-5)', () => {
  it('gives the concepts of consolidated memories, their edges and the Mermaid text', async () => {
    const { value } = await start({
      prepare: (home) => {
        const memory = (id: string, category: string, tags: string[], links: string[] = []) =>
          writeMemoryFixture(home.memoryHome, 'ENGINEER01', category, id, {
            summary: id,
            memory_type: 'semantic',
            created: '2026-03-01T10:00:00+08:00',
            tags,
            links,
          });
        memory('m1', 'important', ['部署', '上線']);
        memory('m2', 'skill', ['部署', 'runbook'], ['m1']);
        memory('m3', 'important', ['部署']);
        memory('i1', 'inbox', ['收件匣不算']);
      },
    });
    const map = await value<MindmapView>('mindmap.get', { role: 'ENGINEER01' });
    expect(map.memories).toBe(3);
    expect(map.nodes[0]).toMatchObject({ label: '部署', weight: 3, category: 'important' });
    expect(map.nodes.map((n) => n.label)).not.toContain('收件匣不算');
    const deploy = map.nodes[0]!.id;
    const launch = map.nodes.find((n) => n.label === '上線')!.id;
    expect(map.edges).toContainEqual(expect.objectContaining({ source: deploy, target: launch }));
    expect(map.mermaid.startsWith('mindmap\n')).toBe(true);
    expect(map.mermaid).toContain('["部署"]');
    expect(map.unreadable).toBe(0);
  });
});
