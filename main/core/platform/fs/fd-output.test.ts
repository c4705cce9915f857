import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * fd-output.ts writes straight to the descriptor; only a full non-blocking pipe (EAGAIN) hands
 * the rest to the stream — and then everything after it, so that nothing overtakes it.
 * (Through a real process and pipe: hook-stdin.test.ts, "stdout a full non-blocking pipe".)
 */
afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

async function freshWriter() {
  return (await import('./fd-output.js')).writeToFd;
}

describe('writeToFd', () => {
  it('writes the UTF-8 bytes to the descriptor, looping over short writes', async () => {
    const writeToFd = await freshWriter();
    const got: Buffer[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buffer: Buffer, offset: number) => {
      expect(fd).toBe(1);
      const chunk = buffer.subarray(offset, offset + 3); // three bytes at a time: one CJK character
      got.push(Buffer.from(chunk));
      return chunk.length;
    }) as typeof fs.writeSync);
    const stream = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    writeToFd(1, '記憶 ok\n');
    expect(Buffer.concat(got).toString('utf8')).toBe('記憶 ok\n');
    expect(stream).not.toHaveBeenCalled();
  });

  it('after EAGAIN the rest, and every later write, goes to the stream in order', async () => {
    const writeToFd = await freshWriter();
    let calls = 0;
    const direct: string[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((_fd: number, buffer: Buffer, offset: number) => {
      if (++calls > 1) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      direct.push(buffer.subarray(offset, offset + 2).toString('utf8'));
      return 2;
    }) as typeof fs.writeSync);
    const streamed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(
      ((chunk: Uint8Array) => (streamed.push(Buffer.from(chunk).toString('utf8')), true)) as typeof process.stdout.write,
    );
    writeToFd(1, 'first\n');
    writeToFd(1, 'second\n');
    expect(direct).toEqual(['fi']);
    expect(streamed).toEqual(['rst\n', 'second\n']);
    expect(calls).toBe(2); // the second write did not try the descriptor again
  });

  it('a closed reader (EPIPE) or no descriptor is ignored: no throw, nothing queued', async () => {
    const writeToFd = await freshWriter();
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    });
    const stream = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(() => writeToFd(2, 'gone\n')).not.toThrow();
    expect(stream).not.toHaveBeenCalled();
  });
});
