import type { KiokuConfig } from '../../platform/config/config.js';
import { ensureRoleMemoryDirs } from '../../store/memory/memory-layout.js';
import { readActiveRoleId } from '../../store/roles/role-active.js';
import { collectImportTraces, findImportTrace } from './import-ids.js';
import { importedMemoryPath, prepareImportedMemory, writeImportedMemory, type ImportedMemoryDraft } from './import-memory-writer.js';
import { applyImportedRole, cleanPersona, planImportedRole, type ImportedPersona } from './import-role.js';
import type { ImportReport } from './import-types.js';

/**
 * The shared second half of every importer: one persona and its memories into the homes.
 * Plans first (which role, which files) from reads only; on a dry run that plan is the report
 * and nothing is written. Memory files are created exclusively and atomically, one by one, so an
 * interrupted import simply goes on where it stopped when run again.
 */
export async function importPersona(
  config: KiokuConfig,
  report: ImportReport,
  input: { persona: ImportedPersona; drafts: ImportedMemoryDraft[] },
  reserved: Set<string>,
): Promise<void> {
  const cleanedPersona = await cleanPersona(input.persona);
  report.warnings.push(...cleanedPersona.warnings);
  const prepared = [];
  for (const draft of input.drafts) {
    const memory = await prepareImportedMemory(draft, config.clock.now());
    report.warnings.push(...memory.warnings.map((warning) => `${draft.source}: ${warning}`));
    prepared.push(memory);
  }
  const plan = planImportedRole(
    config,
    cleanedPersona.persona,
    prepared.map((item) => item.memory.id),
    reserved,
  );
  const willCreateFolder = plan.action === 'create' || (plan.action === 'memory-only' && !plan.existing);
  const firstRole = readActiveRoleId(config.paths.roleHome) === undefined && !report.roles.some((role) => role.madeActive);
  let madeActive = plan.action === 'create' && firstRole;
  if (!report.dryRun) {
    if (plan.action === 'create') madeActive = applyImportedRole(config, plan).madeActive;
    else if (plan.action === 'memory-only') ensureRoleMemoryDirs(config.paths.memoryHome, plan.id);
  }
  if (willCreateFolder) report.changes += 1;
  report.roles.push({
    sourceKey: plan.persona.sourceKey,
    sourcePath: plan.persona.sourcePath,
    id: plan.id,
    name: plan.persona.name,
    action: plan.action,
    madeActive,
    cleaned: cleanedPersona.cleaned,
    notes: plan.action === 'exists' ? [] : plan.persona.notes,
  });

  const seen = new Set<string>();
  const traces = collectImportTraces(config.paths.memoryHome, plan.id);
  for (const item of prepared) {
    const { memory } = item;
    const base = {
      role: plan.id,
      id: memory.id,
      category: memory.category,
      memory_type: memory.memory_type,
      summary: memory.summary,
      source: item.source,
      cleaned: item.cleaned,
    };
    if (seen.has(memory.id)) {
      report.skipped.push({ source: item.source, reason: `the same text appears earlier in the source (memory ${memory.id})` });
      continue;
    }
    seen.add(memory.id);
    const trace = findImportTrace(traces, memory.id);
    if (trace) {
      report.memories.push({ ...base, path: trace, action: 'exists' });
      continue;
    }
    const target = importedMemoryPath(config.paths.memoryHome, plan.id, memory);
    const written = report.dryRun || writeImportedMemory(config.paths.memoryHome, plan.id, item);
    report.memories.push({ ...base, path: target, action: written ? 'create' : 'exists' });
    if (written) report.changes += 1;
  }
}
