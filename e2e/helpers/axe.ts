import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** WCAG 2.0–2.2, levels A and AA: what the issue asks the UI to meet. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeFinding {
  rule: string;
  impact: string;
  line: string;
}

/**
 * axe-core on the page as it stands: every violation, one readable line per failing element (the
 * rule, its impact, the element and axe's own summary — for contrast it names both colours and
 * the ratio), so a failing spec says what to fix without a rerun.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      rule: violation.id,
      impact: node.impact ?? violation.impact ?? 'unknown',
      line: `[${node.impact ?? violation.impact}] ${violation.id}: ${violation.help}\n    at ${node.target.join(' ')}: ${node.html.slice(0, 160)}\n    ${(node.failureSummary ?? '').replace(/\n\s*/g, ' ')}`,
    })),
  );
}

export const isBlocking = (finding: AxeFinding) => finding.impact === 'serious' || finding.impact === 'critical';
