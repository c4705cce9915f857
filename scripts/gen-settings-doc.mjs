// Writes docs/settings.md from the one settings table (main/core/platform/config/settings-schema.ts), so
// the documented defaults can never drift from the code. Run after `npm run build`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { SETTINGS } = await import(
  pathToFileURL(path.resolve(root, process.env.KIOKU_DIST ?? 'dist', 'main/core/platform/config/settings-schema.js')).href
);

export function renderSettingsDoc(settings) {
  const rows = Object.entries(settings).map(([name, spec]) => {
    const def = spec.default === null ? '(unset)' : `\`${spec.default === true ? '1' : spec.default === false ? '0' : spec.default}\``;
    const range = spec.choices
      ? ` (${spec.choices.join(', ')})`
      : spec.min !== undefined || spec.max !== undefined
        ? ` (${spec.min ?? ''}–${spec.max ?? ''})`
        : '';
    return `| \`${name}\` | ${spec.kind}${range} | ${def} | ${spec.description} |`;
  });
  return `# Settings

Every \`ROLE_*\` variable of the role skill (HOOK-4, see requirements.md) keeps its meaning and default; \`KIOKU_*\` are
Kioku's own. Precedence: environment, then \`<memory home>/.kioku/settings.json\` (written by the
app's settings page), then the default. A value that does not parse is reported on stderr (and
by \`kioku status\`) and the default is used, so a typo never stops a hook.

Generated from \`main/core/platform/config/settings-schema.ts\` by \`node scripts/gen-settings-doc.mjs\`.

| name | kind | default | meaning |
| --- | --- | --- | --- |
${rows.join('\n')}

## "Local time"

Every time Kioku reads or writes as a time of day or a date is on **the user's clock**: the
sleep window (\`ROLE_SLEEP_START\`–\`ROLE_SLEEP_END\`), the morning brief at the window's end,
"今天" in an \`expires\`, the day a memory belongs to in the timeline and the forgetting clock, log
lines (\`[yyyy/MM/dd HH:mm:ss]\`), journal times, and the \`+08:00\`-style offsets written into
frontmatter. The user's clock is, in order:

1. \`ROLE_TIMEZONE\`, when set (an IANA name such as \`Asia/Taipei\`, in any letter case; an unknown
   name is reported and ignored) — for a server, container or WSL whose own zone is UTC while
   its user is not;
2. else \`TZ\` in the environment Kioku starts from (the assistant's, for hooks; the shell's, for
   the CLI; the line's, for cron);
3. else the machine's zone (\`/etc/timezone\`, \`/etc/localtime\`).

Dates in files are read as written: \`2026-12-01T22:00:00+08:00\` and \`…Z\` are instants; the
seed's \`2026/12/01 22:00:00\` and a bare \`2026-12-01\` have no zone and are read on the user's
clock.

**cron** reads its five fields on its own clock — the machine's, whatever \`TZ\` a line sets for
its command. So \`kioku install-cron\` writes hourly lines (at the minute the window starts on
the user's clock) with \`TZ=<the user's zone>\` in each, and \`kioku sleep\` / \`kioku brief
--scheduled\` decide on the user's clock whether it is the window / the hour after it. This works
in any pair of zones and any cron (Debian's and busybox's cron ignore \`CRON_TZ\`). \`kioku status\`
shows the zone and where it came from; \`kioku diagnose\` flags a shell \`TZ\` that differs from
\`ROLE_TIMEZONE\`, and crontab lines that run in another zone or that fire only at fixed hours on a
clock that is not the user's (lines from an older install: run \`kioku install-cron\` again).
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(root, 'docs', 'settings.md'), renderSettingsDoc(SETTINGS));
  process.stdout.write('docs/settings.md written\n');
}
