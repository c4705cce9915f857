import { useEffect, useRef, useState } from 'react';
import type { MemoryDetail, RoleListItem, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { ClarityMark } from './ClarityMark.js';
import { withoutRepeats } from './dedupe-sentences.js';
import { MemoryActions, type ForgottenInfo } from './MemoryActions.js';
import { MemoryEditForm } from './MemoryEditForm.js';
import { MemoryMarkdown } from './MemoryMarkdown.js';
import { categoryLabel, typeLabel } from './memory-labels.js';
import { useScrollIntoView } from './use-scroll-into-view.js';

export interface MemoryRef {
  role: string;
  id: string;
}

/** A known word in the user's language, else the word as written (files may carry others). */
function known(t: (key: MessageKey) => string, prefix: string, value: string): string {
  const key = `${prefix}.${value}` as MessageKey;
  const text = t(key);
  return text === key ? value : text;
}

/** The gist, then the detail, each sentence once (merged memories repeat themselves). */
function BodyText({ gist, detail }: { gist: string; detail: string }) {
  const { t } = useI18n();
  const seen = new Set<string>();
  const shownGist = withoutRepeats(gist, seen);
  const shownDetail = withoutRepeats(detail, seen);
  if (!shownGist && !shownDetail) return <p className="muted">{t('common.empty')}</p>;
  return (
    <>
      {shownGist ? <MemoryMarkdown text={shownGist} className="memory-detail-gist" /> : null}
      {shownDetail ? <MemoryMarkdown text={shownDetail} className="memory-detail-text" /> : null}
    </>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="detail-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * One memory in full (APP-2 "detail, links, clarity state"): the gist and the detail as Markdown
 * (never the raw file; a merged memory's repeated sentences once), links that open the linked
 * memory, cues, dates, PM-2's strength and recall count, and the actions on it (issue 16).
 * Escape closes it and returns focus to the list; opening scrolls it into view.
 */
export function MemoryDetailPanel({
  target,
  role,
  version,
  onOpen,
  onClose,
  onForgotten,
}: {
  target: MemoryRef;
  role: RoleListItem | undefined;
  /** Changes when the role's memory files changed: the memory is read again. */
  version: number;
  onOpen(ref: MemoryRef): void;
  onClose(): void;
  onForgotten(info: ForgottenInfo): void;
}) {
  const { t, language, formatDate, formatNumber } = useI18n();
  const bridge = useBridge();
  const [detail, setDetail] = useState<MemoryDetail>();
  const [error, setError] = useState<UiError>();
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  const [editing, setEditing] = useState(false);
  const [reloaded, setReloaded] = useState(0);
  const { notify } = useNotices();

  useEffect(() => {
    let current = true;
    setError(undefined);
    void bridge.invoke('memories.get', target).then((result) => {
      if (!current) return;
      if (result.ok) setDetail(result.value);
      else {
        setDetail(undefined);
        setError(result.error);
      }
    });
    return () => {
      current = false;
    };
  }, [bridge, target, version, reloaded]);
  useEffect(() => setEditing(false), [target]);

  // Land on the memory's title when it opens, so a keyboard or screen-reader user is in the panel.
  const openedKey = detail ? `${detail.role}/${detail.id}` : undefined;
  useEffect(() => {
    if (openedKey) heading.current?.focus({ preventScroll: true });
  }, [openedKey]);
  useScrollIntoView(panel, `${target.role}/${target.id}`);

  const shown = detail && detail.id === target.id && detail.role === target.role ? detail : undefined;
  return (
    <aside
      ref={panel}
      className="memory-detail card"
      aria-label={t('detail.label')}
      aria-busy={!shown && !error}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
      data-testid="memory-detail"
    >
      <div className="memory-detail-top">
        <span className="memory-detail-kicker">{t('detail.title')}</span>
        <button type="button" className="icon-button" aria-label={t('detail.close')} onClick={onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {!shown && !error ? <p className="loading">{t('common.loading')}</p> : null}
      {shown ? (
        <>
          <div className="memory-detail-badges">
            <span className={`badge category-badge category-${shown.category}`}>{categoryLabel(shown.category, language)}</span>
            <span className={`badge type-badge type-${shown.memory_type}`}>
              <span className="type-dot" aria-hidden="true" />
              {typeLabel(shown.memory_type, language)}
            </span>
            <ClarityMark clarity={shown.clarity} withText />
            {shown.warm ? <span className="badge badge-warm">♥ {t('timeline.warm')}</span> : null}
            {shown.pinned ? <span className="badge badge-pinned">★ {t('memoryActions.pinned')}</span> : null}
            {shown.superseded ? <span className="badge badge-superseded">{t('memoryActions.superseded')}</span> : null}
          </div>
          <h2 className="memory-detail-summary" ref={heading} tabIndex={-1}>
            {shown.summary || t('common.empty')}
          </h2>
          {role ? (
            <p className="memory-detail-role">
              {role.emoji ? `${role.emoji} ` : ''}
              {role.name || role.id}
            </p>
          ) : null}
          {shown.clarity && shown.clarity !== 'clear' ? (
            <p className={`clarity-note clarity-note-${shown.clarity}`}>{t(`detail.clarityNote.${shown.clarity}`)}</p>
          ) : null}
          {shown.category === 'inbox' ? <p className="clarity-note">{t('detail.inboxNote')}</p> : null}
          {shown.pinned ? <p className="clarity-note pinned-note">{t('memoryActions.pinnedNote')}</p> : null}
          {shown.superseded ? <p className="clarity-note superseded-note">{t('memoryActions.supersededNote')}</p> : null}
          {editing ? (
            <MemoryEditForm
              detail={shown}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                notify('success', t('memoryActions.done.edit'));
                setReloaded((n) => n + 1);
              }}
            />
          ) : (
            <MemoryActions
              detail={shown}
              onEdit={() => setEditing(true)}
              onChanged={() => setReloaded((n) => n + 1)}
              onForgotten={onForgotten}
            />
          )}

          <section className="memory-detail-section" aria-labelledby="detail-body">
            <h3 id="detail-body" className="detail-heading">
              {t('detail.body')}
            </h3>
            <BodyText gist={shown.gist} detail={shown.detail} />
          </section>

          {shown.links_resolved.length ? (
            <section className="memory-detail-section" aria-labelledby="detail-links">
              <h3 id="detail-links" className="detail-heading">
                {t('detail.links')}
              </h3>
              <ul className="memory-links">
                {shown.links_resolved.map((link) => (
                  <li key={link.id}>
                    {link.found ? (
                      <button type="button" className="memory-link" onClick={() => onOpen({ role: shown.role, id: link.id })}>
                        {link.memory_type ? <span className={`type-dot type-${link.memory_type}`} aria-hidden="true" /> : null}
                        <span className="memory-link-text">{link.summary || link.id}</span>
                        <Icon name="up" size={14} className="memory-link-arrow" />
                      </button>
                    ) : (
                      <span className="memory-link memory-link-gone">
                        <span className="memory-link-text">{t('detail.linkGone', { id: link.id })}</span>
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {shown.tags.length || shown.cues.length ? (
            <section className="memory-detail-section" aria-labelledby="detail-words">
              <h3 id="detail-words" className="detail-heading">
                {t('detail.words')}
              </h3>
              {shown.tags.length ? (
                <p className="word-line">
                  <span className="word-label">{t('detail.tags')}</span>
                  {shown.tags.map((tag) => (
                    <span key={tag} className="memory-tag">
                      #{tag}
                    </span>
                  ))}
                </p>
              ) : null}
              {shown.cues.length ? (
                <p className="word-line">
                  <span className="word-label">{t('detail.cues')}</span>
                  {shown.cues.map((cue) => (
                    <span key={cue} className="cue-chip">
                      {cue}
                    </span>
                  ))}
                </p>
              ) : null}
            </section>
          ) : null}

          <section className="memory-detail-section" aria-labelledby="detail-facts">
            <h3 id="detail-facts" className="detail-heading">
              {t('detail.facts')}
            </h3>
            <div className="strength" aria-hidden="true">
              <span className="strength-bar" style={{ width: `${Math.max(0, Math.min(100, shown.strength))}%` }} />
            </div>
            <dl className="detail-facts">
              <Fact label={t('detail.strength')}>{t('detail.strengthValue', { n: formatNumber(shown.strength) })}</Fact>
              <Fact label={t('detail.hits')}>{t('detail.hitsValue', { n: formatNumber(shown.hits) })}</Fact>
              <Fact label={t('detail.priority')}>{t('detail.priorityValue', { n: shown.priority })}</Fact>
              <Fact label={t('detail.created')}>{formatDate(shown.created) || t('timeline.noDate')}</Fact>
              {shown.updated && shown.updated !== shown.created ? (
                <Fact label={t('detail.updated')}>{formatDate(shown.updated)}</Fact>
              ) : null}
              <Fact label={t('detail.lastReplayed')}>{shown.last_replayed ? formatDate(shown.last_replayed) : t('detail.never')}</Fact>
              {shown.expires ? (
                <Fact label={t('detail.expires')}>
                  {/^\d{4}-\d{2}-\d{2}/.test(shown.expires) ? formatDate(shown.expires) : shown.expires}
                </Fact>
              ) : null}
              {shown.relevance.length ? (
                <Fact label={t('detail.relevance')}>{shown.relevance.map((r) => known(t, 'relevance', r)).join(t('chart.separator'))}</Fact>
              ) : null}
              <Fact label={t('detail.stage')}>
                {[
                  known(t, 'retention', shown.retention_stage),
                  known(t, 'sleepStage', shown.sleep_stage),
                  known(t, 'declarative', shown.declarative),
                ].join(' · ')}
              </Fact>
              <Fact label={t('detail.id')}>
                <span className="mono">{shown.id}</span>
              </Fact>
            </dl>
          </section>
        </>
      ) : null}
    </aside>
  );
}
