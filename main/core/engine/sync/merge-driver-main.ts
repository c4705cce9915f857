import fs from 'node:fs';
import { runDriver } from './merge-driver.js';
import { DRIVER_KINDS, type DriverKind } from './sync-layout.js';

/**
 * Entry point git runs for Kioku's merge drivers (configured by `kioku sync init`):
 * `node merge-driver-main.js <kind> %O %A %B %P`. Kept apart from the CLI so a merge of many
 * files does not load the command parser each time.
 */
const [kind, baseFile, oursFile, theirsFile, pathName] = process.argv.slice(2);
const read = (file: string | undefined) => {
  try {
    return file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
};
if (!kind || !(DRIVER_KINDS as readonly string[]).includes(kind) || !oursFile) {
  process.stderr.write(`kioku merge driver: expected <${DRIVER_KINDS.join('|')}> %O %A %B %P, got ${process.argv.slice(2).join(' ')}\n`);
  process.exit(1);
}
try {
  runDriver(
    {
      kind: kind as DriverKind,
      base: read(baseFile),
      ours: read(oursFile),
      theirs: read(theirsFile),
      pathName: pathName ?? '',
      treeDir: process.cwd(),
    },
    oursFile,
  );
} catch (error) {
  // exit 1 leaves the file unmerged; the sync then keeps ours and a copy of theirs (resolve-unmerged.ts).
  process.stderr.write(`kioku merge driver (${kind} ${pathName ?? ''}): ${(error as Error).message}\n`);
  process.exit(1);
}
