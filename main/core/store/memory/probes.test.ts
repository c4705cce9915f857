import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySeed000Fixture, SEED000_ROLE } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { loadRoleMemories } from './memory-layout.js';
import { addProbe, auditProbes, confirmProbe, denyProbe } from './probes.js';

const ROLE = SEED000_ROLE;
const HAIKU = '20261120-200000-77aa';
const DEPLOY = '20261105-140000-0a1b';
let home: TempHome;
let config: KiokuConfig;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  config = home.config();
  copySeed000Fixture(home.memoryHome);
});
afterEach(() => home.cleanup());

const memory = (id: string) => loadRoleMemories(home.memoryHome, ROLE).memories.find((m) => m.id === id)!;

describe('probes (PM-4)', () => {
  it('add records a pending question in the frontmatter, keeping everything else', async () => {
    const before = memory(DEPLOY);
    const change = await addProbe(config, ROLE, DEPLOY, '你是说部署前要先跑测试吗？');
    expect(change).toMatchObject({ id: DEPLOY, probe: 'pending' });
    const after = memory(DEPLOY);
    expect(after.extra).toMatchObject({ probe: 'pending', probe_question: '你是說部署前要先跑測試嗎？', source_session: 'abc-123' });
    expect(after).toMatchObject({
      summary: before.summary,
      cues: before.cues,
      body: before.body,
      created: before.created,
      updated: before.updated,
    });
  });

  it('confirm and deny close a probe; a denial is flagged for correction', async () => {
    await addProbe(config, ROLE, DEPLOY);
    await addProbe(config, ROLE, HAIKU, '妳是在學寫俳句嗎？');
    confirmProbe(config, ROLE, DEPLOY);
    await denyProbe(config, ROLE, HAIKU, '其實是在學短歌');
    expect(memory(DEPLOY).extra).toMatchObject({ probe: 'confirmed' });
    expect(memory(HAIKU).extra).toMatchObject({ probe: 'denied', probe_note: '其實是在學短歌', needs_correction: true });
    expect(fs.readFileSync(memory(HAIKU).path, 'utf8')).toContain('{{not a template}}');
  });

  it('audit counts probes by state and lists denials awaiting correction', async () => {
    await addProbe(config, ROLE, DEPLOY);
    await addProbe(config, ROLE, HAIKU);
    await denyProbe(config, ROLE, HAIKU);
    expect(auditProbes(home.memoryHome, ROLE)).toEqual({
      role: ROLE,
      counts: { pending: 1, confirmed: 0, denied: 1 },
      needsCorrection: [{ id: HAIKU, path: memory(HAIKU).path }],
    });
  });

  it('refuses unknown ids and closing a probe that was never added', async () => {
    await expect(addProbe(config, ROLE, 'no-such-id')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(() => confirmProbe(config, ROLE, DEPLOY)).toThrow(/has no probe to close/);
    expect(memory(DEPLOY).extra.probe).toBeUndefined();
  });
});
