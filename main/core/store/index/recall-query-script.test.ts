import { describe, expect, it, vi } from 'vitest';
import { recallQueryInStoredScript } from './recall-query-script.js';

describe('recallQueryInStoredScript', () => {
  it('turns a Simplified query into the Traditional the files are stored in', async () => {
    expect(await recallQueryInStoredScript('头发')).toBe('頭髮');
    expect(await recallQueryInStoredScript('会议记录')).toBe('會議記錄');
  });

  it('leaves Traditional and non-Chinese queries as they are', async () => {
    expect(await recallQueryInStoredScript('頭髮')).toBe('頭髮');
    expect(await recallQueryInStoredScript('vitest mock')).toBe('vitest mock');
  });
});

describe('recallQueryInStoredScript without OpenCC', () => {
  it('does not run the script guard for a query none of whose characters it could change', async () => {
    vi.resetModules();
    const guard = vi.fn(async (text: string) => ({ text, converted: false, warnings: [] }));
    vi.doMock('../../platform/privacy/script-guard.js', () => ({ guardScript: guard }));
    const { recallQueryInStoredScript: convert } = await import('./recall-query-script.js');
    expect(await convert('頭髮 部署流程')).toBe('頭髮 部署流程');
    expect(guard).not.toHaveBeenCalled();
    await convert('会议');
    expect(guard).toHaveBeenCalledWith('会议');
    vi.doUnmock('../../platform/privacy/script-guard.js');
  });
});
