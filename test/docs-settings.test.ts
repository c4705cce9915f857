import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../main/core/platform/config/settings-schema.js';

describe('docs/settings.md', () => {
  it('documents every setting with its current default (regenerate: node scripts/gen-settings-doc.mjs)', () => {
    const doc = fs.readFileSync('docs/settings.md', 'utf8');
    for (const [name, spec] of Object.entries(SETTINGS)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, `${name} missing from docs/settings.md`).toBeDefined();
      if (spec.default !== null) {
        const shown = spec.default === true ? '1' : spec.default === false ? '0' : String(spec.default);
        expect(row, name).toContain(`\`${shown}\``);
      }
    }
  });
});
