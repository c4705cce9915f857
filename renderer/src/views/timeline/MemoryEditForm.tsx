import { useState, type FormEvent } from 'react';
import { ALL_CATEGORIES, type MemoryCategory } from '../../../../common/memory.js';
import type { MemoryDetail, UiError, UiRequest } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useI18n } from '../../i18n/i18n.js';
import { categoryLabel } from './memory-labels.js';

type Changes = UiRequest<'memories.edit'>['changes'];

const splitTags = (text: string) => [
  ...new Set(
    text
      .split(/[,，、]/u)
      .map((tag) => tag.trim())
      .filter(Boolean),
  ),
];

/**
 * Issue 16: correct one memory in place. Only the fields that differ are sent; main cleans the
 * text (as every stored text), writes the file atomically and moves it when the category changes.
 */
export function MemoryEditForm({ detail, onSaved, onCancel }: { detail: MemoryDetail; onSaved(): void; onCancel(): void }) {
  const { t, language } = useI18n();
  const bridge = useBridge();
  const [summary, setSummary] = useState(detail.summary);
  const [body, setBody] = useState(detail.body);
  const [tags, setTags] = useState(detail.tags.join(language === 'zh-TW' ? '、' : ', '));
  const [priority, setPriority] = useState(detail.priority);
  const [category, setCategory] = useState<MemoryCategory>(detail.category);
  const [expires, setExpires] = useState(detail.expires);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<UiError>();

  const changes = (): Changes => {
    const out: Changes = {};
    if (summary.trim() !== detail.summary) out.summary = summary.trim();
    if (body.trim() !== detail.body.trim()) out.body = body;
    const nextTags = splitTags(tags);
    if (nextTags.join('\u0000') !== detail.tags.join('\u0000')) out.tags = nextTags;
    if (priority !== detail.priority) out.priority = priority;
    if (category !== detail.category) out.category = category;
    if (expires.trim() !== detail.expires) out.expires = expires.trim();
    return out;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const asked = changes();
    if (Object.keys(asked).length === 0) return onCancel();
    setBusy(true);
    const result = await bridge.invoke('memories.edit', {
      role: detail.role,
      id: detail.id,
      changes: asked,
    });
    setBusy(false);
    if (result.ok) onSaved();
    else setError(result.error);
  };

  const field = (id: string, label: string, control: React.ReactNode) => (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {control}
    </div>
  );
  return (
    <form className="memory-edit-form" aria-labelledby="memory-edit-title" onSubmit={(event) => void submit(event)}>
      <h3 id="memory-edit-title" className="detail-heading">
        {t('memoryEdit.title')}
      </h3>
      {error ? <ErrorNotice error={error} /> : null}
      {field(
        'memory-edit-summary',
        t('memoryEdit.summary'),
        <input
          id="memory-edit-summary"
          className="input"
          value={summary}
          required
          maxLength={1000}
          onChange={(e) => setSummary(e.target.value)}
        />,
      )}
      {field(
        'memory-edit-body',
        t('memoryEdit.body'),
        <textarea id="memory-edit-body" className="input textarea" rows={8} value={body} onChange={(e) => setBody(e.target.value)} />,
      )}
      {field(
        'memory-edit-tags',
        t('memoryEdit.tags'),
        <input id="memory-edit-tags" className="input" value={tags} onChange={(e) => setTags(e.target.value)} />,
      )}
      <div className="memory-edit-row">
        {field(
          'memory-edit-priority',
          t('memoryEdit.priority'),
          <select id="memory-edit-priority" className="input" value={priority} onChange={(e) => setPriority(Number(e.target.value))}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>,
        )}
        {field(
          'memory-edit-category',
          t('memoryEdit.category'),
          <select
            id="memory-edit-category"
            className="input"
            value={category}
            onChange={(e) => setCategory(e.target.value as MemoryCategory)}
          >
            {ALL_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c, language)}
              </option>
            ))}
          </select>,
        )}
      </div>
      {field(
        'memory-edit-expires',
        t('memoryEdit.expires'),
        <input id="memory-edit-expires" className="input" value={expires} maxLength={200} onChange={(e) => setExpires(e.target.value)} />,
      )}
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('memoryEdit.saving') : t('memoryEdit.save')}
        </button>
      </div>
    </form>
  );
}
