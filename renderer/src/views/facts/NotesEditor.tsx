import { useEffect, useId, useState } from 'react';
import type { UiError } from '../../../../common/ui-contract.js';
import { readDraft, useKeepDraft } from '../../app/drafts.js';
import { useLeaveGuard } from '../../app/leave-guard.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { measureFactsText, measureProjectMemoryText, usageLevel, type UsageLevel } from './notes-usage.js';

export type NotesKind = 'facts' | 'project';

interface Counter {
  label: MessageKey;
  value: number;
  max: number;
  level: UsageLevel;
}

function countersOf(kind: NotesKind, text: string): Counter[] {
  if (kind === 'facts') {
    const usage = measureFactsText(text);
    return [
      { label: 'facts.counter.lines', value: usage.lines, max: usage.maxLines, level: usageLevel(usage.lines, usage.maxLines) },
      { label: 'facts.counter.bytes', value: usage.bytes, max: usage.maxBytes, level: usageLevel(usage.bytes, usage.maxBytes) },
    ];
  }
  const usage = measureProjectMemoryText(text);
  return [{ label: 'facts.counter.chars', value: usage.chars, max: usage.maxChars, level: usageLevel(usage.chars, usage.maxChars) }];
}

/** Why Save is off, in the words the user needs; undefined when it may be pressed. */
function blockedReason(
  kind: NotesKind,
  text: string,
  counters: Counter[],
  dirty: boolean,
  creating: boolean,
  initialEmpty: boolean,
): MessageKey | undefined {
  const over = counters.filter((c) => c.level === 'over');
  if (over.length) {
    if (kind === 'project') return 'facts.blocked.chars';
    if (over.length === 2) return 'facts.blocked.both';
    return over[0]!.label === 'facts.counter.lines' ? 'facts.blocked.lines' : 'facts.blocked.bytes';
  }
  // Emptying an existing file is not a save (delete the file to clear it); a new one is simply not written yet.
  if (!text.trim()) return initialEmpty ? 'facts.blocked.unchanged' : 'facts.blocked.empty';
  if (!dirty && !creating) return 'facts.blocked.unchanged';
  return undefined;
}

export interface NotesEditorProps {
  kind: NotesKind;
  /** The text as read from disk. */
  initialText: string;
  /** A new file (MEMORY.md on the explicit "create" button): Save creates it. */
  creating?: boolean;
  /** Save the text; resolves to the error main gave, or undefined when saved. */
  onSave(text: string): Promise<UiError | undefined>;
  /** Read the file again (after a refusal because it changed on disk). */
  onReload(): void;
  /** Leave creation without writing anything. */
  onCancelCreate?(): void;
  textareaLabel: string;
  /** Where unsaved typing is kept for this tab (drafts.ts), e.g. `facts` or `project:<folder>`. */
  draftKey: string;
  /** Told whether the text differs from the file's, so a change on disk does not replace unsaved work. */
  onDirtyChange?(dirty: boolean): void;
}

/**
 * A DSH-1/2 editor: the text, live counters against the write limits ("行數 42 / 100 · 位元組
 * 3,120 / 8,000") that turn amber near a limit and red over it, and a Save that is off while the
 * text is over (with the reason next to it). Main checks again and may still refuse (its error
 * is shown): the editor's count is a courtesy, the write side is the guard (DSH-1/2: limits are enforced on the write side).
 */
export function NotesEditor({
  kind,
  initialText,
  creating = false,
  onSave,
  onReload,
  onCancelCreate,
  textareaLabel,
  draftKey,
  onDirtyChange,
}: NotesEditorProps) {
  const { t, formatNumber } = useI18n();
  const { notify } = useNotices();
  const id = useId();
  const [text, setText] = useState(initialText);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<UiError>();
  useEffect(() => {
    // A draft kept from an earlier visit comes back when the file is still what it was made from.
    const kept = readDraft(draftKey, initialText);
    setText(kept ?? initialText);
    if (kept !== undefined) notify('info', t('draft.restored'));
    setError(undefined);
  }, [initialText, draftKey]);

  const counters = countersOf(kind, text);
  const dirty = text !== initialText;
  useLeaveGuard(dirty, { keepsDraft: true });
  useKeepDraft(draftKey, initialText, text, dirty);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const reason = blockedReason(kind, text, counters, dirty, creating, !initialText.trim());
  const worst: UsageLevel = counters.some((c) => c.level === 'over') ? 'over' : counters.some((c) => c.level === 'near') ? 'near' : 'ok';

  const save = async () => {
    if (reason || saving) return;
    setSaving(true);
    const failure = await onSave(text);
    setSaving(false);
    setError(failure);
  };

  return (
    <div className={`dsh-editor dsh-${worst}`}>
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {textareaLabel}
      </label>
      <textarea
        id={`${id}-text`}
        className="input textarea dsh-textarea"
        value={text}
        spellCheck={false}
        placeholder={t(kind === 'facts' ? 'facts.placeholder.global' : 'facts.placeholder.project')}
        aria-describedby={`${id}-usage${reason && reason !== 'facts.blocked.unchanged' ? ` ${id}-reason` : ''}${error ? ` ${id}-error` : ''}`}
        aria-invalid={worst === 'over' || undefined}
        data-testid={`${kind}-text`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key === 's') {
            event.preventDefault();
            void save();
          }
        }}
      />
      <div className="dsh-footer">
        <p className="dsh-usage" id={`${id}-usage`} aria-live="polite" data-testid={`${kind}-usage`}>
          {counters.map((counter, index) => (
            <span key={counter.label} className={`dsh-counter dsh-counter-${counter.level}`}>
              {index > 0 ? (
                <span className="dsh-sep" aria-hidden="true">
                  ·
                </span>
              ) : null}
              <span className="dsh-counter-label">{t(counter.label)}</span>
              <span className="dsh-counter-value">
                {formatNumber(counter.value)} / {formatNumber(counter.max)}
              </span>
              <span className="dsh-meter" aria-hidden="true">
                <span className="dsh-meter-fill" style={{ width: `${Math.min(100, (counter.value / counter.max) * 100)}%` }} />
              </span>
            </span>
          ))}
        </p>
        <div className="dsh-actions">
          {dirty ? <span className="badge badge-muted dsh-dirty">{t('facts.unsaved')}</span> : null}
          {creating && onCancelCreate ? (
            <button type="button" className="button button-secondary" onClick={onCancelCreate}>
              {t('common.cancel')}
            </button>
          ) : (
            <button type="button" className="button button-secondary" onClick={onReload} disabled={saving}>
              {t('facts.reload')}
            </button>
          )}
          <button
            type="button"
            className="button button-primary"
            disabled={Boolean(reason) || saving}
            aria-describedby={reason ? `${id}-reason` : undefined}
            onClick={() => void save()}
          >
            <Icon name="check" />
            {saving ? t('facts.saving') : creating ? t('facts.createSave') : t('facts.save')}
          </button>
        </div>
      </div>
      {/* Right under Save, focused: a refusal (changed on disk, over a limit) is seen where the click was. */}
      {error ? <ErrorNotice error={error} id={`${id}-error`} focus /> : null}
      {reason && reason !== 'facts.blocked.unchanged' ? (
        <p className={`dsh-reason${worst === 'over' ? ' dsh-reason-over' : ''}`} id={`${id}-reason`} data-testid={`${kind}-blocked`}>
          {worst === 'over' ? <Icon name="warning" /> : <Icon name="info" />}
          <span>
            {t(reason, {
              lines: formatNumber(counters[0]!.value),
              bytes: formatNumber(counters[1]?.value ?? 0),
              chars: formatNumber(counters[0]!.value),
            })}
          </span>
        </p>
      ) : null}
    </div>
  );
}
