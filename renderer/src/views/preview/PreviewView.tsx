import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AppState, KnownProject, SessionPreviewView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useOnFilesChanged } from '../../app/use-files-changed.js';
import { useOnMemoriesChanged } from '../../app/use-memories-changed.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RolePicker, useChosenRole } from '../../components/RolePicker.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';
import { LeftOutList, PreviewBlocks } from './PreviewBlocks.js';
import './preview.css';

const OFF_REASONS: Record<string, MessageKey> = {
  disabled: 'preview.off.disabled',
  'out-of-scope': 'preview.off.out-of-scope',
  'no-role-home': 'preview.off.no-role-home',
};

/** The folder the session starts in: one the assistants were seen in, none (the home folder), or typed. */
function FolderPicker({ projects, value, onChange }: { projects: KnownProject[]; value: string; onChange(folder: string): void }) {
  const { t } = useI18n();
  const id = useId();
  const [typed, setTyped] = useState('');
  const known = value === '' || projects.some((project) => project.path === value);
  return (
    <div className="preview-folder">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-known`}>
          {t('preview.project')}
        </label>
        <select
          id={`${id}-known`}
          className="input"
          value={known ? value : '*typed'}
          onChange={(event) => event.target.value !== '*typed' && onChange(event.target.value)}
          data-testid="preview-project"
        >
          <option value="">{t('preview.noProject')}</option>
          {projects.map((project) => (
            <option key={project.path} value={project.path}>
              {project.path}
            </option>
          ))}
          {!known ? <option value="*typed">{value}</option> : null}
        </select>
      </div>
      <form
        className="field preview-typed"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) onChange(typed.trim());
        }}
      >
        <label className="field-label" htmlFor={`${id}-typed`}>
          {t('preview.typed')}
        </label>
        <div className="preview-typed-row">
          <input
            id={`${id}-typed`}
            className="input mono"
            value={typed}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit" className="button button-secondary" disabled={!typed.trim()}>
            {t('preview.open')}
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * "Next session": exactly what SessionStart would inject now for the chosen role in the chosen
 * folder (main runs the hook's own assembly: `context.preview`), each block against its budget,
 * and what was left out. It follows changes to the memories, facts, journal and project memory.
 */
export function PreviewView({ state }: { state: AppState }) {
  const { t, formatNumber } = useI18n();
  const bridge = useBridge();
  const [role, setRole] = useChosenRole(state.roles, state.activeRole, false);
  const [folder, setFolder] = useState('');
  const [projects, setProjects] = useState<KnownProject[]>([]);
  const [preview, setPreview] = useState<SessionPreviewView>();
  const [error, setError] = useState<UiError>();

  useEffect(() => {
    void bridge.invoke('projectMemory.projects', {}).then((answer) => {
      if (answer.ok) setProjects(answer.value.projects);
    });
  }, [bridge]);

  // Only the newest request's answer is shown: a slower answer for the folder chosen before must not replace it.
  const latest = useRef(0);
  const load = useCallback(async () => {
    if (!role) return;
    const asked = ++latest.current;
    const answer = await bridge.invoke('context.preview', { role, ...(folder ? { project: folder } : {}) });
    if (asked !== latest.current) return;
    if (answer.ok) {
      setPreview(answer.value);
      setError(undefined);
    } else setError(answer.error);
  }, [bridge, role, folder]);

  useEffect(() => {
    void load();
  }, [load]);
  useOnMemoriesChanged(role, load);
  useOnFilesChanged(
    (change) =>
      change.facts || change.journal || change.roles.includes(role) || (preview !== undefined && change.projects.includes(preview.cwd)),
    load,
  );
  // Settings (budgets) and roles come with the state.
  useEffect(() => bridge.subscribe('state.changed', () => void load()), [bridge, load]);

  if (state.roles.length === 0) {
    return (
      <div className="page">
        <PageHeader title={t('preview.title')} subtitle={t('preview.subtitle')} />
        <EmptyState icon="roles" title={t('memoryViews.noRoles.title')} body={t('memoryViews.noRoles.body')} />
      </div>
    );
  }

  const chars = preview?.parts.reduce((sum, part) => sum + part.length, 0) ?? 0;
  return (
    <div className="page preview-page">
      <PageHeader
        title={t('preview.title')}
        subtitle={t('preview.subtitle')}
        actions={
          <>
            <RolePicker id="preview-role" roles={state.roles} value={role} onChange={setRole} />
            <button type="button" className="button button-secondary" onClick={() => void load()}>
              <Icon name="search" size={16} />
              {t('preview.refresh')}
            </button>
          </>
        }
      />
      <section className="card">
        <FolderPicker projects={projects} value={folder} onChange={setFolder} />
        {preview ? <p className="card-text muted mono preview-cwd">{t('preview.cwd', { cwd: preview.cwd })}</p> : null}
      </section>
      {error ? <ErrorNotice error={error} onRetry={() => void load()} /> : null}
      {preview ? (
        <>
          {preview.state === 'asleep' ? (
            <p className="preview-state" role="status">
              {t('preview.asleep')}
            </p>
          ) : null}
          {preview.state === 'locked' ? (
            <p className="preview-state" role="status">
              {t('preview.locked')}
            </p>
          ) : null}
          {preview.state === 'off' ? (
            <p className="preview-state" role="status">
              {t('preview.off', {
                reason:
                  preview.offReason && OFF_REASONS[preview.offReason] ? t(OFF_REASONS[preview.offReason]!) : (preview.offReason ?? ''),
              })}
            </p>
          ) : null}
          {preview.state === 'load' ? (
            <div className="preview-grid">
              <section className="card" aria-labelledby="preview-blocks-title">
                <h2 id="preview-blocks-title" className="card-title">
                  {t('preview.blocks')}
                </h2>
                <p className="card-text" data-testid="preview-total">
                  {t('preview.total', {
                    chars: formatNumber(chars),
                    parts: formatNumber(preview.parts.length),
                    limit: formatNumber(preview.partLimit ?? 0),
                    maxParts: formatNumber(preview.maxParts),
                  })}
                </p>
                <PreviewBlocks blocks={preview.blocks} />
              </section>
              <section className="card" aria-labelledby="preview-left-out-title">
                <h2 id="preview-left-out-title" className="card-title">
                  {t('preview.leftOut')}
                </h2>
                <LeftOutList blocks={preview.blocks} omitted={preview.omitted} />
              </section>
            </div>
          ) : null}
          {preview.parts.length ? (
            <section className="card" aria-labelledby="preview-text-title">
              <h2 id="preview-text-title" className="card-title">
                {t('preview.text')}
              </h2>
              {preview.parts.map((part, index) => (
                <div key={index} className="preview-part">
                  {preview.parts.length > 1 ? (
                    <h3 className="preview-part-title">{t('preview.part', { n: formatNumber(index + 1) })}</h3>
                  ) : null}
                  <pre className="preview-text" data-testid="preview-part" tabIndex={0}>
                    {part}
                  </pre>
                </div>
              ))}
            </section>
          ) : null}
        </>
      ) : !error ? (
        <p className="loading">{t('common.loading')}</p>
      ) : null}
    </div>
  );
}
