import type { MessageKey } from '../../i18n/messages-zh-TW.js';

/** The applied counts a digest carries (apply-plan.ts), in the order people read them. */
export const APPLIED_ORDER = ['created', 'merged', 'corrected', 'superseded', 'discarded', 'forgotten', 'bonds'] as const;

const LABELS: Record<(typeof APPLIED_ORDER)[number], MessageKey> = {
  created: 'applied.created',
  merged: 'applied.merged',
  corrected: 'applied.corrected',
  superseded: 'applied.superseded',
  discarded: 'applied.discarded',
  forgotten: 'applied.forgotten',
  bonds: 'applied.bonds',
};

/** Known counts first in APPLIED_ORDER, then any other the file has, as written. */
export function appliedEntries(applied: Record<string, number>): { key: string; label: MessageKey | undefined; n: number }[] {
  const known = APPLIED_ORDER.filter((key) => key in applied).map((key) => ({ key, label: LABELS[key], n: applied[key]! }));
  const others = Object.keys(applied)
    .filter((key) => !(APPLIED_ORDER as readonly string[]).includes(key))
    .map((key) => ({ key, label: undefined, n: applied[key]! }));
  return [...known, ...others];
}

const REASONS: Record<string, MessageKey> = {
  'catch-up': 'digest.reason.catch-up',
  manual: 'digest.reason.manual',
  sleep: 'digest.reason.sleep',
  nap: 'digest.reason.nap',
};

/** Why a consolidation ran, in words; undefined for older entries (and reasons this version does not know). */
export function reasonLabel(reason: string | undefined): MessageKey | undefined {
  return reason ? REASONS[reason] : undefined;
}
