import { useCallback, useEffect, useState } from 'react';
import type { AppState, MindmapView as MindmapData, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnMemoriesChanged } from '../../app/use-memories-changed.js';
import { useNotices } from '../../app/notices.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RolePicker, useChosenRole } from '../../components/RolePicker.js';
import { useI18n } from '../../i18n/i18n.js';
import { categoryLabel } from '../timeline/memory-labels.js';
import { MindmapDrawing } from './MindmapDrawing.js';
import { relatedOf } from './mindmap-layout.js';
import { useContentWidth } from './use-content-width.js';
import './mindmap.css';

/** Copy text; the clipboard API needs a secure context and permission, so fall back to a selection. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * The mind map (PM-5): a role's consolidated concepts (tags) grouped by category,
 * drawn here without Mermaid; "copy Mermaid" gives the same map as Mermaid text for any viewer.
 */
export function MindmapView({ state }: { state: AppState }) {
  const { t, language, formatNumber } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [role, setRole] = useChosenRole(state.roles, state.activeRole, false);
  const [map, setMap] = useState<MindmapData>();
  const [error, setError] = useState<UiError>();
  const [focused, setFocused] = useState<string>();
  const [showText, setShowText] = useState(false);
  const [canvasRef, canvasWidth] = useContentWidth();

  const load = useCallback(async () => {
    if (!role) return;
    const answer = await bridge.invoke('mindmap.get', { role });
    if (answer.ok) {
      if (answer.value.role !== role) return;
      setMap(answer.value);
      setError(undefined);
    } else setError(answer.error);
  }, [bridge, role]);

  useEffect(() => {
    setMap(undefined);
    setFocused(undefined);
    void load();
  }, [load]);
  useOnMemoriesChanged(role, load);

  const copy = async () => {
    if (!map) return;
    if (await copyText(map.mermaid)) notify('success', t('mindmap.copied'));
    else setShowText(true);
  };

  if (state.roles.length === 0) {
    return (
      <div className="page">
        <PageHeader title={t('nav.mindmap')} subtitle={t('mindmap.subtitle')} />
        <EmptyState icon="roles" title={t('memoryViews.noRoles.title')} body={t('memoryViews.noRoles.body')} />
      </div>
    );
  }

  const node = focused ? map?.nodes.find((n) => n.id === focused) : undefined;
  const related = node && map ? relatedOf(node.id, map.edges) : [];
  const labelOf = (id: string) => map?.nodes.find((n) => n.id === id)?.label ?? id;
  return (
    <div className="page mindmap-page">
      <PageHeader
        title={t('nav.mindmap')}
        subtitle={t('mindmap.subtitle')}
        actions={
          <>
            <RolePicker id="mindmap-role" roles={state.roles} value={role} onChange={setRole} />
            <button type="button" className="button button-secondary" onClick={() => void copy()} disabled={!map}>
              <Icon name="copy" />
              {t('mindmap.copy')}
            </button>
          </>
        }
      />
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {!map && !error ? <p className="loading">{t('common.loading')}</p> : null}
      {map && map.nodes.length === 0 ? <EmptyState icon="mindmap" title={t('mindmap.empty.title')} body={t('mindmap.empty.body')} /> : null}
      {map && map.nodes.length > 0 ? (
        <>
          <p className="mindmap-summary">
            {t('mindmap.summary', { concepts: formatNumber(map.nodes.length), memories: formatNumber(map.memories) })}
            {map.omitted > 0 ? ` ${t('mindmap.omitted', { count: formatNumber(map.omitted) })}` : ''}
          </p>
          <div className="mindmap-layout">
            <div
              ref={canvasRef}
              className="card mindmap-canvas"
              onKeyDown={(event) => {
                if (event.key === 'Escape') setFocused(undefined);
              }}
            >
              <MindmapDrawing map={map} focused={focused} onFocus={setFocused} fitWidth={canvasWidth} />
            </div>
            <aside className="card mindmap-detail" aria-live="polite" aria-label={t('mindmap.detail')}>
              {node ? (
                <>
                  <div className="mindmap-detail-head">
                    <p className="mindmap-detail-category">{categoryLabel(node.category, language)}</p>
                    <h2 className="mindmap-detail-title">{node.label}</h2>
                    <p className="mindmap-detail-weight" data-testid="mindmap-weight">
                      {t('mindmap.weight', { count: formatNumber(node.weight) })}
                    </p>
                  </div>
                  <div>
                    <h3 className="mindmap-detail-sub">{t('mindmap.related')}</h3>
                    {related.length ? (
                      <ul className="mindmap-related">
                        {related.map(({ other, edge }) => (
                          <li key={other}>
                            <button type="button" className="mindmap-related-link" onClick={() => setFocused(other)}>
                              {labelOf(other)}
                            </button>
                            <span className="mindmap-related-why">
                              {[
                                edge.together ? t('mindmap.together', { count: edge.together }) : '',
                                edge.linked ? t('mindmap.linked', { count: edge.linked }) : '',
                              ]
                                .filter(Boolean)
                                .join('、')}
                            </span>
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="field-help">{t('mindmap.noRelated')}</p>
                    )}
                  </div>
                </>
              ) : (
                <p className="field-help">{t('mindmap.hint')}</p>
              )}
            </aside>
          </div>
        </>
      ) : null}
      {map ? (
        <details className="mindmap-text" open={showText} onToggle={(event) => setShowText((event.target as HTMLDetailsElement).open)}>
          <summary>{t('mindmap.showText')}</summary>
          <pre className="mono" data-testid="mindmap-mermaid">
            {map.mermaid}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
