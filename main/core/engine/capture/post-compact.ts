import type { KiokuConfig } from '../../platform/config/config.js';
import { silentLogger } from '../../platform/config/log.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import type { CaptureReport, PostCompactRecord } from './capture-types.js';
import { writeCapturedMemory } from './capture-writer.js';
import { emptyReport, turnTime, type CaptureOptions } from './handle-capture.js';
import { stripPersonalDetails } from './personal-details.js';
import { clip, splitSentences } from '../../platform/text/turn-text.js';
import { compactProjectExtra } from './capture-project.js';

/**
 * CAP-5: PostCompact keeps the summary the harness already wrote
 * as a `daily` memory: reusing it calls no model, so the condensed backup is free (CTX-2's quota
 * control). The field is read tolerantly; when none is there, the field names that were there are
 * logged, so a harness update cannot break this silently. `trigger` tells manual from auto: an
 * automatic compaction is the one the user did not notice. Never blocks anything: this runs in the daemon, after the hook returned.
 */
export const SUMMARY_FIELDS = ['compact_summary', 'compactSummary', 'summary', 'compaction_summary'] as const;

export function compactSummaryOf(record: PostCompactRecord): string | undefined {
  if (typeof record.compactSummary === 'string' && record.compactSummary.trim()) return record.compactSummary.trim();
  for (const field of SUMMARY_FIELDS) {
    const value = record.payload?.[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

const TRIGGER_LABEL: Record<string, string> = { auto: '自動壓縮', manual: '手動壓縮' };

export async function handlePostCompact(
  config: KiokuConfig,
  record: PostCompactRecord,
  options: CaptureOptions = {},
): Promise<CaptureReport> {
  const logger = options.logger ?? silentLogger;
  const report = emptyReport(record.eventId, record.roleId);
  if (!config.settings.ROLE_CAPTURE_ENABLED) return { ...report, skipped: 'disabled' };
  let summary = compactSummaryOf(record);
  if (!summary) {
    const fields = record.payloadKeys ?? Object.keys(record.payload ?? {});
    logger.warn(
      'capture',
      `PostCompact from ${record.assistant} carried no summary (looked for ${SUMMARY_FIELDS.join(', ')}); payload fields: ${fields.join(', ') || '(none)'}`,
    );
    return { ...report, skipped: 'no-summary' };
  }
  if (readMemoryState(config.paths.memoryHome, record.roleId).state.personal_memory_consent !== 'accepted') {
    const stripped = stripPersonalDetails(summary);
    summary = stripped.text;
    report.personalDetailsRemoved = stripped.removed;
  }
  const trigger = typeof record.trigger === 'string' && record.trigger ? record.trigger : 'unknown';
  const label = TRIGGER_LABEL[trigger] ?? '對話壓縮';
  const at = turnTime(config, record.receivedAt);
  const gist = splitSentences(summary)[0] ?? summary;
  const written = await writeCapturedMemory(
    config,
    record.roleId,
    { eventId: record.eventId, index: 0, at },
    {
      category: 'daily',
      summary: `對話壓縮摘要（${label}）：${clip(gist, 80)}`,
      body: `${summary}\n\n- 觸發：${trigger}${trigger === 'auto' ? '（自動壓縮，使用者未主動要求）' : ''}`,
      tags: ['對話壓縮', label],
      priority: 2,
      memory_type: 'episodic',
      // Encoded now, not consolidated (the same convention as `remember`, CAP-7).
      sleep_stage: 'encoding',
      // What a session did in its repository: that project's (issue 12, memory-project.ts).
      extra: { source: `post-compact:${record.assistant}`, compact_trigger: trigger, ...compactProjectExtra(config, record.cwd) },
    },
  );
  (written.written ? report.written : report.existing).push(written.memory.id);
  report.warnings.push(...written.warnings);
  report.condenser = 'harness';
  return report;
}
