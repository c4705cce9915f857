import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { ROLE, writeMemory } from '../../../../test/cli/recall-test-fixtures.js';
import { PROTOCOL_VERSION } from '../../../../common/hook-wire.js';
import { silentLogger } from '../../platform/config/log.js';
import { openMemoryIndex } from './memory-index.js';
import { createRecallService, type RecallService } from './recall-service.js';
import { REBUILD_AFTER_CHANGED } from './word-postings-upkeep.js';

const PAUSE_MS = 30;
const NOW = Date.UTC(2026, 2, 10, 4);

let home: TempHome;
let service: RecallService | undefined;
beforeEach(() => {
  home = makeTempHome();
});
afterEach(() => {
  service?.close();
  home.cleanup();
});

function readIndex(sql: string): unknown {
  const index = openMemoryIndex(home.config().paths);
  try {
    return index.db.prepare(sql).pluck().get();
  } finally {
    index.close();
  }
}
const changedCount = () => readIndex('SELECT count(*) FROM postings_changed') as number;
const postingsState = () => readIndex("SELECT value FROM meta WHERE key = 'word_postings'");

async function recallOnce(): Promise<number> {
  service ??= createRecallService(home.config().paths, silentLogger, PAUSE_MS);
  const answer = await service.recall({
    v: PROTOCOL_VERSION,
    id: 'r1',
    token: 't',
    kind: 'recall',
    memoryHome: home.memoryHome,
    role: ROLE,
    query: '部署',
    limit: 5,
    nowMs: NOW,
    replayedAt: '2026-03-10T12:00',
  });
  answer.delivered(false);
  return answer.result.memories.length;
}

/** Resolves once `check` holds, polling; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the daemon keeps the word postings built (issue 17)', () => {
  it('builds them once recalls pause, and rebuilds them once more than REBUILD_AFTER_CHANGED memories changed since', async () => {
    for (let i = 0; i < 20; i += 1) writeMemory(home.memoryHome, 'daily', { id: `m${i}`, summary: `部署第${i}次`, body: '今天部署' });
    // A fresh index: no postings until the daemon has a moment, after the recall.
    expect(await recallOnce()).toBe(5);
    await until(() => postingsState() === 'ready');
    expect(changedCount()).toBe(0);

    // As many changes as a sleep or an import makes since: rebuilt once recalls pause again.
    const index = openMemoryIndex(home.config().paths);
    index.db.prepare("UPDATE meta SET value = ? WHERE key = 'word_postings_changed'").run(String(REBUILD_AFTER_CHANGED + 1));
    index.db.prepare('INSERT INTO postings_changed (doc) VALUES (123456)').run();
    index.close();
    expect(await recallOnce()).toBe(5);
    await until(() => changedCount() === 0);
    expect(await recallOnce()).toBe(5);
  });
});
