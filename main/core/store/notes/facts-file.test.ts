import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { KiokuError } from '../../../../common/errors.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { readFacts, updateFacts } from './facts-file.js';

const homes: TempHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

function paths() {
  const home = makeTempHome();
  homes.push(home);
  return home.config().paths;
}

async function refusal(promise: Promise<unknown>): Promise<KiokuError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KiokuError);
  return error as KiokuError;
}

const ghp = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

describe('readFacts', () => {
  it('reports a missing FACT.md as empty, without creating it', () => {
    const p = paths();
    expect(readFacts(p)).toMatchObject({ exists: false, text: '', usage: { lines: 0, bytes: 0, maxLines: 100, maxBytes: 8000, over: [] } });
    expect(fs.existsSync(p.factsFile)).toBe(false);
  });

  it('reports usage, and an over-limit file written by hand', () => {
    const p = paths();
    fs.writeFileSync(p.factsFile, '\uFEFF使用者叫阿明\n'.concat('x\n'.repeat(120)));
    const facts = readFacts(p);
    expect(facts.text.startsWith('使用者叫阿明\n')).toBe(true);
    expect(facts.usage).toMatchObject({ lines: 121, over: ['lines'] });
  });
});

describe('updateFacts (DSH-1)', () => {
  it('accepts exactly 100 lines and exactly 8000 bytes, writing the text as given', async () => {
    const p = paths();
    const hundred = Array.from({ length: 100 }, (_, i) => `事實 ${i + 1}`).join('\n') + '\n';
    const written = await updateFacts(p, hundred);
    expect(written).toMatchObject({ created: true, changedByCleaning: false, usage: { lines: 100, over: [] } });
    expect(fs.readFileSync(p.factsFile, 'utf8')).toBe(hundred);

    const bytes8000 = `${'中'.repeat(2666)}ab`;
    expect(await updateFacts(p, bytes8000)).toMatchObject({ created: false, usage: { bytes: 8000, over: [] } });
    expect(fs.readFileSync(p.factsFile, 'utf8')).toBe(bytes8000);
  });

  it('refuses 101 lines, leaving the file byte-identical', async () => {
    const p = paths();
    await updateFacts(p, '原本的事實\n');
    const before = fs.readFileSync(p.factsFile);
    const error = await refusal(updateFacts(p, 'x\n'.repeat(100) + 'y'));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toMatch(/101 lines \(limit 100\)/);
    expect(error.hint).toMatch(/project-memory|journal/);
    expect(fs.readFileSync(p.factsFile).equals(before)).toBe(true);
  });

  it('refuses 8001 bytes, leaving the file byte-identical', async () => {
    const p = paths();
    await updateFacts(p, '原本的事實\n');
    const before = fs.readFileSync(p.factsFile);
    const error = await refusal(updateFacts(p, `${'中'.repeat(2666)}ab\n`));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toMatch(/8001 UTF-8 bytes \(limit 8000\)/);
    expect(fs.readFileSync(p.factsFile).equals(before)).toBe(true);
  });

  it('refuses over the limit without creating a missing file, and refuses an empty text', async () => {
    const p = paths();
    await refusal(updateFacts(p, 'x\n'.repeat(101)));
    expect((await refusal(updateFacts(p, ' \n'))).code).toBe('BAD_USAGE');
    expect(fs.existsSync(p.factsFile)).toBe(false);
  });

  it('masks secrets and converts Simplified to Traditional, and says that it changed the text', async () => {
    const p = paths();
    const result = await updateFacts(p, `使用者喜欢黑咖啡\n部署用的 token 是 ${ghp}\n`);
    expect(result.changedByCleaning).toBe(true);
    const stored = fs.readFileSync(p.factsFile, 'utf8');
    expect(stored).toContain('喜歡');
    expect(stored).not.toContain(ghp);
    expect(stored).toContain('[REDACTED:github-token]');
  });
});
