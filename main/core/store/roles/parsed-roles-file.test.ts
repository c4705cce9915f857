import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL, writeText } from '../../../../test/cli/role-test-fixtures.js';
import { parsedRolesFile } from './parsed-roles-file.js';
import { parseSplitRole } from './role-definition.js';
import { keepRoleParses, readRoleDefinition, readRoleFileText } from './role-repository.js';

/**
 * Role parses kept between processes (issue 17): a later process with the same code takes the
 * parse of the very same texts, and nothing else. A fresh role folder per test, so this
 * process's own memo (role-repository.ts) never answers for another test's files.
 */
let home: TempHome | undefined;
afterEach(() => {
  keepRoleParses(undefined);
  home?.cleanup();
  home = undefined;
});

const ID = 'ENGINEER01';

function setUp(): { file: string; identity: string; soul: string } {
  home = makeTempHome();
  writeText(home.roleHome, `${ID}.identity.md`, SPLIT_ENGINEER_IDENTITY);
  writeText(home.roleHome, `${ID}.soul.md`, SPLIT_ENGINEER_SOUL);
  return {
    file: path.join(home.root, 'state', 'parsed-roles.json'),
    identity: path.join(home.roleHome, `${ID}.identity.md`),
    soul: path.join(home.roleHome, `${ID}.soul.md`),
  };
}

const texts = (files: { identity: string; soul: string }) => ({
  identity: readRoleFileText(files.identity),
  soul: readRoleFileText(files.soul),
});

describe('parsed role definitions kept on disk', () => {
  it('a parse is written, and a later process with the same code takes it for the same texts', () => {
    const files = setUp();
    keepRoleParses(parsedRolesFile(files.file, 'code-1'));
    const parsed = readRoleDefinition(home!.roleHome, ID);
    expect(fs.existsSync(files.file)).toBe(true);
    const { identity, soul } = texts(files);
    expect(parsedRolesFile(files.file, 'code-1').get(ID, identity, soul)).toEqual(parsed);
  });

  it('what is kept is what is used: a kept parse stands for the files while their texts are the same', () => {
    const files = setUp();
    const { identity, soul } = texts(files);
    // A parse kept by an earlier process, told apart from a fresh one by its name.
    const earlier = parsedRolesFile(files.file, 'code-1');
    earlier.put(ID, identity, soul, { ...readRoleDefinitionFresh(), name: '先前解析的小豹' });
    keepRoleParses(parsedRolesFile(files.file, 'code-1'));
    expect(readRoleDefinition(home!.roleHome, ID).name).toBe('先前解析的小豹');
  });

  it('is not used for other texts, another id, another code, or a file that is not one', () => {
    const files = setUp();
    const { identity, soul } = texts(files);
    parsedRolesFile(files.file, 'code-1').put(ID, identity, soul, { ...readRoleDefinitionFresh(), name: '先前解析的小豹' });
    const kept = () => parsedRolesFile(files.file, 'code-1');
    expect(kept().get(ID, identity, { text: `${soul.text}\n新的一行` })).toBeUndefined();
    expect(kept().get(ID, { ...identity, text: identity.text.replace('小豹', '大豹') }, soul)).toBeUndefined();
    expect(kept().get('OTHER01', identity, soul)).toBeUndefined();
    expect(parsedRolesFile(files.file, 'code-2').get(ID, identity, soul)).toBeUndefined();
    expect(kept().get(ID, identity, soul)?.name).toBe('先前解析的小豹');
    const stored = JSON.parse(fs.readFileSync(files.file, 'utf8'));
    stored.entries[identity.path].definition.aliases = 'not a list';
    fs.writeFileSync(files.file, JSON.stringify(stored));
    expect(kept().get(ID, identity, soul)).toBeUndefined();
    fs.writeFileSync(files.file, '{"format":');
    expect(kept().get(ID, identity, soul)).toBeUndefined();
    // And the role still reads, parsed afresh.
    keepRoleParses(kept());
    expect(readRoleDefinition(home!.roleHome, ID).name).toBe('小豹');
  });

  it('an edited file is parsed anew, and its parse replaces the kept one', () => {
    const files = setUp();
    keepRoleParses(parsedRolesFile(files.file, 'code-1'));
    readRoleDefinition(home!.roleHome, ID);
    writeText(home!.roleHome, `${ID}.soul.md`, SPLIT_ENGINEER_SOUL.replace(/## 氛圍[^\n]*\n/, '$&新的氛圍。\n'));
    expect(readRoleDefinition(home!.roleHome, ID).vibe).toContain('新的氛圍。');
    const { identity, soul } = texts(files);
    expect(parsedRolesFile(files.file, 'code-1').get(ID, identity, soul)?.vibe).toContain('新的氛圍。');
  });

  it('a parse that JSON cannot give back as it was is not kept', () => {
    const files = setUp();
    const { identity, soul } = texts(files);
    const store = parsedRolesFile(files.file, 'code-1');
    store.put(ID, identity, soul, { ...readRoleDefinitionFresh(), extraFields: { ratio: Number.NaN } });
    expect(fs.existsSync(files.file)).toBe(false);
  });
});

/** The role as parsed, without this process's memo (role-repository.ts) learning of it. */
function readRoleDefinitionFresh() {
  const file = (name: string) => readRoleFileText(path.join(home!.roleHome, name));
  return parseSplitRole(ID, file(`${ID}.identity.md`), file(`${ID}.soul.md`));
}
