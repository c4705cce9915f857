import type { SecretLintSourceOptions } from '@secretlint/core';
import { applyRedactions, findSecretsSync, type SecretRange } from './redact-sync.js';
import { silenceSecretlintProfiler } from './secretlint-profiler-off.js';

/**
 * PRIV-1 for text that is stored: our own patterns (redact-sync.ts) plus "the common key formats a
 * maintained secret-scanning rule set knows" — secretlint's recommended preset (AWS, GCP service
 * accounts, private keys, Slack, npm, SendGrid, Shopify, database connection strings, …).
 *
 * secretlint is loaded on first use (the hook client must never load it; check-imports.mjs
 * enforces that), and its API is async, hence two functions: redactSync for hot paths, redact
 * for everything written to disk.
 */
type SecretlintConfig = SecretLintSourceOptions['options']['config'];

let configPromise: Promise<SecretlintConfig> | undefined;

function secretlintConfig(): Promise<SecretlintConfig> {
  configPromise ??= import('@secretlint/secretlint-rule-preset-recommend').then(({ rules }) => ({
    rules: rules
      // filter-comments honours `secretlint-disable` comments; a memory's text comes from a
      // conversation, so anyone could switch the scan off by typing that phrase. Leave it out.
      .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
      .map((rule) => ({
        id: rule.meta.id,
        rule,
        // AWS access key IDs (AKIA…) are off by default in the preset; a memory is no place for them.
        options: rule.meta.id === '@secretlint/secretlint-rule-aws' ? { enableIDScanRule: true } : {},
      })),
  }));
  return configPromise;
}

async function findSecretlintRanges(text: string): Promise<SecretRange[]> {
  const [{ lintSource }, config] = await Promise.all([import('@secretlint/core'), secretlintConfig(), silenceSecretlintProfiler()]);
  const result = await lintSource({
    source: { filePath: '/kioku-memory.md', content: text, ext: '.md', contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  const ranges: SecretRange[] = [];
  for (const message of result.messages) {
    const kind = message.ruleId.replace('@secretlint/secretlint-rule-', '');
    ranges.push({ start: message.range[0], end: message.range[1], kind });
    // Some rules report a range that starts at the key name and is as long as the secret
    // (aws: `aws_secret_access_key = "…` cut in the middle of the value), so the secret itself,
    // which the rule names in `data`, is also masked wherever it occurs. Values with spaces are
    // labels (`typeName: "GitHub personal access tokens"`), not secrets.
    for (const value of Object.values(message.data ?? {})) {
      if (typeof value !== 'string' || value.length < 8 || /\s/.test(value)) continue;
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
        ranges.push({ start: at, end: at + value.length, kind });
      }
    }
  }
  return ranges;
}

function overlaps(a: SecretRange, b: SecretRange): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * Mask every secret our patterns or secretlint's preset find. Where both find the same secret,
 * ours wins: ours cover only the secret (a URL's `user:pass`, not its host), while some of
 * secretlint's ranges cover the whole URL or start at the key name instead of the value.
 * Never throws: if secretlint fails, the text still gets our own redaction.
 */
export async function redact(text: string): Promise<string> {
  const ours = findSecretsSync(text);
  let theirs: SecretRange[] = [];
  try {
    theirs = await findSecretlintRanges(text);
  } catch {
    // A broken rule set must not stop a memory from being written; ours already ran.
  }
  const extra = theirs.filter((range) => !ours.some((own) => overlaps(own, range)));
  return applyRedactions(text, [...ours, ...extra]);
}
