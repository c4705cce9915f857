import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { KnownProject, ProjectMemoryView, UiError } from '../../../../common/ui-contract.js';
import { useBridge } from '../../app/bridge-context.js';
import { useNotices } from '../../app/notices.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Icon } from '../../components/icons.js';
import { useI18n } from '../../i18n/i18n.js';
import { NotesEditor } from './NotesEditor.js';
import { useFollowDisk } from './use-follow-disk.js';

const LAST_PROJECT_KEY = 'kioku.project';

function remembered(): string {
  try {
    return localStorage.getItem(LAST_PROJECT_KEY) ?? '';
  } catch {
    return '';
  }
}

function remember(project: string): void {
  try {
    localStorage.setItem(LAST_PROJECT_KEY, project);
  } catch {
    /* chosen for this window only */
  }
}

/**
 * The project picker: folders the assistants were seen working in (main reads them from the
 * transcripts it knows of), or a path typed by hand. Main refuses anything that is not an
 * existing folder, and says so.
 */
function ProjectPicker({
  projects,
  current,
  error,
  onOpen,
}: {
  projects: KnownProject[];
  current: string;
  error: UiError | undefined;
  onOpen(project: string): void;
}) {
  const { t, formatDate } = useI18n();
  const id = useId();
  const [typed, setTyped] = useState('');
  const typedInput = useRef<HTMLInputElement>(null);
  // A folder main refused is the typed path's fault: the message sits under it and the focus goes back to it.
  useEffect(() => {
    if (error) typedInput.current?.focus();
  }, [error]);
  const known = projects.some((p) => p.path === current);
  return (
    <div className="project-picker">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-known`}>
          {t('facts.project.known')}
        </label>
        <select
          id={`${id}-known`}
          className="input"
          value={known ? current : ''}
          onChange={(event) => event.target.value && onOpen(event.target.value)}
          data-testid="project-select"
        >
          <option value="">{projects.length ? t('facts.project.choose') : t('facts.project.noneKnown')}</option>
          {projects.map((project) => (
            <option key={project.path} value={project.path}>
              {`${project.path}${project.hasMemory ? `  ·  ${t('facts.project.hasMemory')}` : ''}${project.lastSeen ? `  ·  ${formatDate(project.lastSeen)}` : ''}`}
            </option>
          ))}
        </select>
      </div>
      <form
        className="field project-typed"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) onOpen(typed.trim());
        }}
      >
        <label className="field-label" htmlFor={`${id}-typed`}>
          {t('facts.project.typed')}
        </label>
        <div className="project-typed-row">
          <input
            ref={typedInput}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            id={`${id}-typed`}
            className="input mono"
            value={typed}
            placeholder={t('facts.project.placeholder')}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
            data-testid="project-path"
          />
          <button type="submit" className="button button-secondary" disabled={!typed.trim()}>
            {t('facts.project.open')}
          </button>
        </div>
        {error ? <ErrorNotice error={error} id={`${id}-error`} /> : null}
      </form>
    </div>
  );
}

/** DSH-2: `<project>/MEMORY.md`, injected into that project's sessions when it exists; never created unasked. */
export function ProjectPanel() {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const [projects, setProjects] = useState<KnownProject[]>([]);
  const [project, setProject] = useState(remembered);
  const [view, setView] = useState<ProjectMemoryView>();
  const [error, setError] = useState<UiError>();
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void bridge.invoke('projectMemory.projects', {}).then((answer) => {
      if (answer.ok) setProjects(answer.value.projects);
    });
  }, [bridge]);

  // `kioku project-memory` or an editor changed this MEMORY.md: shown at once, unless there are unsaved changes.
  const disk = useFollowDisk({
    matches: (change) => Boolean(view && change.projects.includes(view.project)),
    read: () => (view ? bridge.invoke('projectMemory.read', { project: view.project }) : undefined),
    current: view,
    apply: (next) => {
      if (!creating) setView(next);
    },
  });
  const settled = disk.settled;

  const load = useCallback(
    async (target: string) => {
      if (!target) return;
      settled();
      const answer = await bridge.invoke('projectMemory.read', { project: target });
      setCreating(false);
      if (answer.ok) {
        setView(answer.value);
        setError(undefined);
        setProject(answer.value.project);
        remember(answer.value.project);
      } else {
        setView(undefined);
        setError(answer.error);
      }
    },
    [bridge, settled],
  );

  useEffect(() => {
    if (project) void load(project);
    // Only the remembered project, once: later choices load through onOpen.
  }, [load]); // project left out on purpose

  const save = async (text: string): Promise<UiError | undefined> => {
    if (!view) return undefined;
    const answer = await bridge.invoke('projectMemory.update', {
      project: view.project,
      text,
      revision: view.revision,
      ...(creating ? { create: true } : {}),
    });
    if (!answer.ok) return answer.error;
    setView(answer.value.view);
    disk.settled();
    setCreating(false);
    setProjects((all) => all.map((p) => (p.path === view.project ? { ...p, hasMemory: true } : p)));
    notify('success', t(answer.value.created ? 'facts.savedNew' : 'facts.saved', { file: 'MEMORY.md' }));
    if (answer.value.changedByCleaning) notify('warning', t('facts.cleaned'));
    return undefined;
  };

  return (
    <section className="card dsh-card" aria-labelledby="facts-project-title">
      <div className="dsh-card-head">
        <div>
          <h2 id="facts-project-title" className="card-title">
            {t('facts.project.title')}
          </h2>
          <p className="field-help">{t('facts.project.help')}</p>
        </div>
      </div>
      <ProjectPicker
        projects={projects}
        current={view?.project ?? project}
        error={error?.field === 'project' ? error : undefined}
        onOpen={(target) => void load(target)}
      />
      {error && error.field !== 'project' ? <ErrorNotice error={error} focus /> : null}
      {disk.changedOutside ? (
        <p className="dsh-outside" role="status" data-testid="project-changed-outside">
          {t('live.changedOutside', { file: 'MEMORY.md' })}
        </p>
      ) : null}
      {view ? (
        <>
          <p className="dsh-path">
            <span className="mono">{view.path}</span>
            {view.exists ? null : <span className="badge badge-muted">{t('facts.notYet')}</span>}
          </p>
          {view.exists || creating ? (
            <NotesEditor
              kind="project"
              draftKey={`project:${view.project}`}
              initialText={view.text}
              creating={creating}
              onSave={save}
              onReload={() => void load(view.project)}
              onCancelCreate={() => setCreating(false)}
              textareaLabel={t('facts.project.textLabel', { project: view.project })}
              onDirtyChange={disk.setDirty}
            />
          ) : (
            <div className="dsh-missing">
              <Icon name="facts" size={22} />
              <div>
                <p className="dsh-missing-title">{t('facts.project.missing.title')}</p>
                <p className="field-help">{t('facts.project.missing.body')}</p>
              </div>
              <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
                <Icon name="plus" />
                {t('facts.project.create')}
              </button>
            </div>
          )}
        </>
      ) : !error ? (
        <p className="field-help">{t('facts.project.pick')}</p>
      ) : null}
    </section>
  );
}
