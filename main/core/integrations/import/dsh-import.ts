import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { importFacts, importJournal } from './dsh-shared-memory-import.js';
import { readDshHome } from './dsh-reader.js';
import { emptyReport, type ImportReport } from './import-types.js';
import { importPersona } from './write-imported-persona.js';

/**
 * `kioku import --from dsh <DSH_HOME>` (X-IMPORT, the notes skill): personas become Kioku roles
 * (dsh-reader.ts has the field table), FACT.md becomes the global facts and JOURNAL.jsonl's
 * entries join the journal. The DSH home is only read. Idempotent: a role remembers its source
 * (`imported_from: dsh:<id>`), FACT.md is written only where there is none, and journal entries
 * already there are not appended again.
 */
export async function importDshHome(config: KiokuConfig, dir: string, options: { dryRun?: boolean } = {}): Promise<ImportReport> {
  const source = path.resolve(dir);
  const report = emptyReport('dsh', source, Boolean(options.dryRun));
  const home = readDshHome(source);
  report.skipped.push(...home.skipped);
  const reserved = new Set<string>();
  for (const persona of home.personas) {
    if (!persona.nature.trim()) {
      // DSH personas carry no memories of their own, so a persona without any text has nothing to import.
      report.skipped.push({
        source: path.relative(source, persona.sourcePath) || persona.sourcePath,
        reason: 'not imported: neither SOUL.md nor persona.yml says what the persona is (nature)',
      });
      continue;
    }
    await importPersona(config, report, { persona, drafts: [] }, reserved);
  }
  if (home.factsFile) await importFacts(config, home.factsFile, report);
  if (home.journalFile) await importJournal(config, home.journalFile, report);
  return report;
}
