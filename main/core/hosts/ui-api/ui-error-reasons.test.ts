import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FactsView, UiResult } from '../../../../common/ui-contract.js';
import { startTestApi, writeFile, type TestApi } from '../../../../test/helpers/web-api.js';

// The UI shows its own text for each error code, so the handlers must set the right one (and the field at fault).
let api: TestApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

const role = { name: '小筆', emoji: '✍️', nature: '寫作助手', vibe: '溫和' };
const errorOf = (result: UiResult<unknown>) => (result.ok ? undefined : result.error);

describe('the UI error codes the handlers set', () => {
  it('names an existing role by ID and name, on the field that clashed', async () => {
    api = await startTestApi();
    await api.value('roles.create', { input: { ...role, prefix: 'WRITER' } });
    expect(errorOf(await api.call('roles.create', { input: role }))).toMatchObject({
      code: 'ALREADY_EXISTS',
      reason: 'role.exists',
      reasonValues: { id: 'WRITER01', name: '小筆' },
      field: 'name',
    });
    expect(errorOf(await api.call('roles.create', { input: { ...role, name: 'Other', id: 'WRITER01' } }))).toMatchObject({
      reason: 'role.exists',
      field: 'id',
    });
  });

  it('refuses to archive the active role with role.isActive, and a stale change with role.changedSince', async () => {
    api = await startTestApi();
    await api.value('roles.create', { input: { ...role, prefix: 'WRITER' } });
    expect(errorOf(await api.call('roles.archive', { id: 'WRITER01' }))).toMatchObject({
      code: 'REFUSED',
      reason: 'role.isActive',
      reasonValues: { id: 'WRITER01' },
    });
    const input = { id: 'WRITER01', vibe: '更溫和' };
    expect(errorOf(await api.call('roles.applyChange', { input, token: 'abcdef' }))).toMatchObject({
      code: 'CONFIRM_NEEDED',
      reason: 'role.changedSince',
    });
  });

  it('tells a FACT.md edited elsewhere (file.changedOnDisk) from one over the limit (text.overLimit), both on the text', async () => {
    api = await startTestApi();
    const read = await api.value<FactsView>('facts.read', {});
    writeFile(path.join(api.home.memoryHome, 'FACT.md'), '- 別處改的\n');
    expect(errorOf(await api.call('facts.update', { text: '- 我的\n', revision: read.revision }))).toMatchObject({
      reason: 'file.changedOnDisk',
      reasonValues: { file: 'FACT.md' },
      field: 'text',
    });
    const again = await api.value<FactsView>('facts.read', {});
    expect(errorOf(await api.call('facts.update', { text: 'x\n'.repeat(101), revision: again.revision }))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      reason: 'text.overLimit',
      field: 'text',
    });
  });

  it('names the project folder field instead of the CLI flag', async () => {
    api = await startTestApi();
    const missing = path.join(api.home.root, '不存在');
    expect(errorOf(await api.call('projectMemory.read', { project: missing }))).toMatchObject({
      code: 'NOT_FOUND',
      reason: 'project.missing',
      reasonValues: { folder: missing },
      field: 'project',
    });
    expect(errorOf(await api.call('projectMemory.read', { project: 'relative/dir' }))).toMatchObject({
      reason: 'project.notAbsolute',
      field: 'project',
    });
  });
});
