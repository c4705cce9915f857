// Writes docs/settings.md from the one settings table (main/core/config/settings-schema.ts), so
// the documented defaults can never drift from the code. Run after `npm run build`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { SETTINGS } = await import(pathToFileURL(path.resolve(root, process.env.KIOKU_DIST ?? 'dist', 'main/core/config/settings-schema.js')).href);

export function renderSettingsDoc(settings) {
  const rows = Object.entries(settings).map(([name, spec]) => {
    const def = spec.default === null ? '(unset)' : `\`${spec.default === true ? '1' : spec.default === false ? '0' : spec.default}\``;
    const range = spec.choices ? ` (${spec.choices.join(', ')})` : spec.min !== undefined || spec.max !== undefined ? ` (${spec.min ?? ''}–${spec.max ?? ''})` : '';
    return `| \`${name}\` | ${spec.kind}${range} | ${def} | ${spec.description} |`;
  });
  return `# Settings

Every \`ROLE_*\` variable of seed 000 §環境變數 keeps its meaning and default; \`KIOKU_*\` are
Kioku's own. Precedence: environment, then \`<memory home>/.kioku/settings.json\` (written by the
app's settings page), then the default. A value that does not parse is reported on stderr (and
by \`kioku status\`) and the default is used, so a typo never stops a hook.

Generated from \`main/core/config/settings-schema.ts\` by \`node scripts/gen-settings-doc.mjs\`.

| name | kind | default | meaning |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(root, 'docs', 'settings.md'), renderSettingsDoc(SETTINGS));
  process.stdout.write('docs/settings.md written\n');
}
