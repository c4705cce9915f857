import { describe, expect, it } from 'vitest';
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
