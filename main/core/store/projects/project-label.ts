import type { RecallProject } from '../index/recall-project.js';

/** `（專案 /work/blog 的慣例，不適用於目前的專案）`-style label for another project's convention; '' otherwise. */
export function otherProjectLabel(fields: RecallProject | undefined): string {
  if (!fields || fields.here || !fields.specific || !fields.projects.length) return '';
  const names = fields.projects.join(', ');
  return `另一個專案的慣例，不適用於目前的專案 (a convention of another project): ${names}`;
}
