import type { FactsView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useLoaded } from '../../app/use-loaded.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useI18n } from '../../i18n/i18n.js';
import { NotesEditor } from './NotesEditor.js';
import { useFollowDisk } from './use-follow-disk.js';

/** DSH-1: the global FACT.md, shared by every role and injected into every main session. */
export function FactsPanel() {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const { value: view, error, reload, setValue: setView } = useLoaded<FactsView>(() => bridge.invoke('facts.read', {}), [bridge]);
  // `kioku facts` or an editor changed FACT.md: shown at once, unless there are unsaved changes.
  const disk = useFollowDisk({
    matches: (change) => change.facts,
    read: () => bridge.invoke('facts.read', {}),
    current: view,
    apply: setView,
  });
  const load = async () => {
    disk.settled();
    await reload();
  };

  const save = async (text: string): Promise<UiError | undefined> => {
    if (!view) return undefined;
    const answer = await bridge.invoke('facts.update', { text, revision: view.revision });
    if (!answer.ok) return answer.error;
    setView(answer.value.view);
    disk.settled();
    notify('success', t(answer.value.created ? 'facts.savedNew' : 'facts.saved', { file: 'FACT.md' }));
    if (answer.value.changedByCleaning) notify('warning', t('facts.cleaned'));
    return undefined;
  };

  return (
    <section className="card dsh-card" aria-labelledby="facts-global-title">
      <div className="dsh-card-head">
        <div>
          <h2 id="facts-global-title" className="card-title">
            {t('facts.global.title')}
          </h2>
          <p className="field-help">{t('facts.global.help')}</p>
        </div>
        {view ? (
          <p className="dsh-path">
            <span className="mono">{view.path}</span>
            {!view.exists ? <span className="badge badge-muted">{t('facts.notYet')}</span> : null}
          </p>
        ) : null}
      </div>
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {disk.changedOutside ? (
        <p className="dsh-outside" role="status" data-testid="facts-changed-outside">
          {t('live.changedOutside', { file: 'FACT.md' })}
        </p>
      ) : null}
      {view ? (
        <NotesEditor
          kind="facts"
          draftKey="facts"
          initialText={view.text}
          onSave={save}
          onReload={() => void load()}
          textareaLabel={t('facts.global.textLabel')}
          onDirtyChange={disk.setDirty}
        />
      ) : !error ? (
        <p className="loading">{t('common.loading')}</p>
      ) : null}
    </section>
  );
}
