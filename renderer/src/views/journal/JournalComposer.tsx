import { useEffect, useId, useState } from 'react';
import type { JournalEntryView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { readDraft, useKeepDraft } from '../../app/drafts.js';
import { useLeaveGuard } from '../../app/leave-guard.js';

const DRAFT_KEY = 'journal';
const EMPTY_DRAFT = { text: '', tags: '' };
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';

/** `部署, #上線 生活` → ['部署', '上線', '生活']: commas (either width), spaces or `#` separate tags. */
export function splitTags(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[,，、\s]+/)) {
    const tag = part.replace(/^#+/, '').trim();
    if (tag) seen.add(tag);
  }
  return [...seen];
}

/** The append form (DSH-3): a note and its tags; the journal has no length limit, on purpose. */
export function JournalComposer({ onAppended }: { onAppended(entry: JournalEntryView): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const id = useId();
  const [kept] = useState(() => readDraft(DRAFT_KEY, EMPTY_DRAFT));
  const [text, setText] = useState(kept?.text ?? '');
  const [tags, setTags] = useState(kept?.tags ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<UiError>();
  const dirty = Boolean(text.trim() || tags.trim());
  useLeaveGuard(dirty, { keepsDraft: true });
  useKeepDraft(DRAFT_KEY, EMPTY_DRAFT, { text, tags }, dirty);
  useEffect(() => {
    if (kept) notify('info', t('draft.restored'));
  }, []); // once, for the draft found on opening

  const submit = async () => {
    if (!text.trim() || saving) return;
    setSaving(true);
    const answer = await bridge.invoke('journal.append', { text, tags: splitTags(tags) });
    setSaving(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setError(undefined);
    setText('');
    setTags('');
    notify('success', t('journal.appended'));
    if (answer.value.changedByCleaning) notify('warning', t('facts.cleaned'));
    onAppended(answer.value.entry);
  };

  return (
    <form
      className="card journal-composer"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id={`${id}-title`} className="card-title">
        {t('journal.compose.title')}
      </h2>
      <div className="field">
        <label className="visually-hidden" htmlFor={`${id}-text`}>
          {t('journal.compose.text')}
        </label>
        <textarea
          id={`${id}-text`}
          className="input textarea journal-text"
          value={text}
          rows={3}
          placeholder={t('journal.compose.placeholder')}
          data-testid="journal-text"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
              event.preventDefault();
              void submit();
            }
          }}
        />
      </div>
      <div className="journal-compose-row">
        <div className="field journal-tags-field">
          <label className="field-label" htmlFor={`${id}-tags`}>
            {t('journal.compose.tags')}
          </label>
          <input
            id={`${id}-tags`}
            className="input"
            value={tags}
            placeholder={t('journal.compose.tagsPlaceholder')}
            autoComplete="off"
            data-testid="journal-tags"
            onChange={(event) => setTags(event.target.value)}
          />
        </div>
        <div className="journal-compose-actions">
          <span className="field-help">{t('journal.compose.hint')}</span>
          <button type="submit" className="button button-primary" disabled={!text.trim() || saving}>
            <Icon name="plus" />
            {saving ? t('journal.compose.saving') : t('journal.compose.submit')}
          </button>
        </div>
      </div>
      {error ? <ErrorNotice error={error} focus /> : null}
    </form>
  );
}
