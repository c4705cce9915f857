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
  /** fs.writeSync as the writer calls it: the string whole first, the bytes from an offset after a short write. */
  type Write = (fd: number, data: string | Buffer, offset?: number) => number;
  const bytesOf = (data: string | Buffer, offset = 0) => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data).subarray(offset);

  it('writes the string whole when the descriptor takes it, without a second write', async () => {
    const writeToFd = await freshWriter();
    const got: Buffer[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd, data, offset) => {
      expect(fd).toBe(1);
      const chunk = bytesOf(data, offset);
      got.push(Buffer.from(chunk));
      return chunk.length;
    }) as Write as typeof fs.writeSync);
    const stream = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    writeToFd(1, '記憶 ok\n');
    expect(got.map((chunk) => chunk.toString('utf8'))).toEqual(['記憶 ok\n']);
    expect(stream).not.toHaveBeenCalled();
  });

  it('writes the UTF-8 bytes to the descriptor, looping over short writes', async () => {
    const writeToFd = await freshWriter();
    const got: Buffer[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd, data, offset) => {
      expect(fd).toBe(1);
      const chunk = bytesOf(data, offset).subarray(0, 3); // three bytes at a time: one CJK character
      got.push(Buffer.from(chunk));
      return chunk.length;
    }) as Write as typeof fs.writeSync);
    const stream = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    writeToFd(1, '記憶 ok\n');
    expect(Buffer.concat(got).toString('utf8')).toBe('記憶 ok\n');
    expect(got.length).toBe(4);
    expect(stream).not.toHaveBeenCalled();
  });

  it('after EAGAIN the rest, and every later write, goes to the stream in order', async () => {
    const writeToFd = await freshWriter();
    let calls = 0;
    const direct: string[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((_fd, data, offset) => {
      if (++calls > 1) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      direct.push(bytesOf(data, offset).subarray(0, 2).toString('utf8'));
      return 2;
    }) as Write as typeof fs.writeSync);
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

  it('EAGAIN on the first write hands the whole answer to the stream', async () => {
    const writeToFd = await freshWriter();
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
    });
    const streamed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(
      ((chunk: Uint8Array) => (streamed.push(Buffer.from(chunk).toString('utf8')), true)) as typeof process.stdout.write,
    );
    writeToFd(1, '記憶\n');
    expect(streamed).toEqual(['記憶\n']);
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
