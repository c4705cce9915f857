import path from 'node:path';
import type { KiokuConfig } from '../../platform/config/config.js';
import { emptyReport, type ImportReport } from './import-types.js';
import { findJscPersonaFolders, readJscPersonaFolder } from './jsc-persona-reader.js';
import { importPersona } from './write-imported-persona.js';

/**
 * `kioku import --from jsc-persona <dir>` (X-IMPORT, seed 001): each persona folder becomes a
 * Kioku role (when it has a definition) with its long-term memories consolidated and its
 * short-term and room notes in the inbox, for the next sleep to judge. The source folders are
 * only read. Idempotent: see import-ids.ts.
 */
export async function importJscPersonas(config: KiokuConfig, dir: string, options: { dryRun?: boolean } = {}): Promise<ImportReport> {
  const source = path.resolve(dir);
  const report = emptyReport('jsc-persona', source, Boolean(options.dryRun));
  const reserved = new Set<string>();
  for (const folderPath of findJscPersonaFolders(source)) {
    const folder = readJscPersonaFolder(folderPath);
    report.skipped.push(...folder.skipped);
    await importPersona(config, report, { persona: folder.persona, drafts: folder.drafts }, reserved);
  }
  return report;
}
