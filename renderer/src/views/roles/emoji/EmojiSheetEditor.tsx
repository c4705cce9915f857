import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  EMOJI_SHEET_LIMITS,
  defaultEmojiGrid,
  emojiCellRects,
  emojiGridProblem,
  evenEmojiGrid,
  moveEmojiGridLine,
  type EmojiGrid,
  type EmojiGridAxis,
} from '../../../../../common/emoji-grid.js';
import type { EmojiGridPreview, EmojiSavePlan, EmojiSheetView, UiError } from '../../../../../common/ui-contract.js';
import { useBridge } from '../../../app/bridge-context.js';
import { useLeaveGuard } from '../../../app/leave-guard.js';
import { useNotices } from '../../../app/notices.js';
import { hrefFor } from '../../../app/routes.js';
import { ErrorNotice } from '../../../components/ErrorNotice.js';
import { Icon } from '../../../components/icons.js';
import { PageHeader } from '../../../components/PageHeader.js';
import { useI18n } from '../../../i18n/i18n.js';
import { EmojiSaveReview } from './EmojiSaveReview.js';
import { GridFields } from './GridFields.js';
import { GridOverlay } from './GridOverlay.js';
import { MoodImages, MoodPreviews } from './MoodPreviews.js';
import { checkSheetFile, formatBytes, readFileAsBase64 } from './sheet-file.js';
import { SheetPicker, useFileDrop } from './SheetPicker.js';
import './emoji-sheet.css';

/** The decoded sheet, for the canvas previews (a data URL from main: same origin, no taint). */
function useLoadedImage(src: string | undefined): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>();
  useEffect(() => {
    setImage(undefined);
    if (!src) return;
    let live = true;
    const element = new Image();
    element.src = src;
    element
      .decode()
      .then(() => live && setImage(element))
      .catch(() => undefined); // the <img> on the page shows the same failure
    return () => {
      live = false;
    };
  }, [src]);
  return image;
}

/**
 * The emoji sheet editor (ROLE-10, APP-2): import a 3×3 mood sheet, move its grid, watch the
 * nine moods, then save: main shows the old/new 簽名 emoji section and the exact cut (ROLE-5),
 * and only the confirm writes the cells, the grid file and the role file.
 */
export function EmojiSheetEditor({ id, onDone }: { id: string; onDone(): void }) {
  const { t } = useI18n();
  const bridge = useBridge();
  const { notify } = useNotices();
  const reviewRef = useRef<HTMLElement>(null);
  const [view, setView] = useState<EmojiSheetView>();
  const [grid, setGrid] = useState<EmojiGrid>();
  const [loadError, setLoadError] = useState<UiError>();
  const [error, setError] = useState<UiError>();
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ plan: EmojiSavePlan; preview: EmojiGridPreview; grid: EmojiGrid }>();

  const show = useCallback((next: EmojiSheetView) => {
    setView(next);
    setGrid(next.grid ?? undefined);
    setReview(undefined);
  }, []);

  const load = useCallback(async () => {
    setLoadError(undefined);
    const result = await bridge.invoke('emoji.get', { id });
    if (!result.ok) return setLoadError(result.error);
    show(result.value);
  }, [bridge, id, show]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (review) reviewRef.current?.focus();
  }, [review]);

  const sheet = view?.sheet ?? undefined;
  useLeaveGuard(Boolean(sheet?.staged));
  const image = useLoadedImage(sheet?.dataUrl);
  const rects = useMemo(() => (grid ? emojiCellRects(grid) : []), [grid]);
  const gridInvalid = Boolean(sheet && grid && emojiGridProblem(grid, sheet.width, sheet.height));

  const importFile = async (file: File) => {
    const problem = checkSheetFile(file);
    if (problem) return setError({ code: 'BAD_USAGE', message: t(problem.key, problem.values) });
    setBusy(true);
    setError(undefined);
    let data: string;
    try {
      data = await readFileAsBase64(file);
    } catch {
      setBusy(false);
      return setError({ code: 'IO', message: t('emoji.pick.unreadable', { name: file.name }) });
    }
    const result = await bridge.invoke('emoji.importSheet', { id, fileName: file.name, data });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    show(result.value);
    // Held by main in memory, not written: the notice says so, and leaving asks (useLeaveGuard below).
    notify('info', t('emoji.staged', { file: file.name }));
  };
  const drop = useFileDrop((file) => void importFile(file), busy);

  if (loadError) {
    return (
      <div className="page">
        <a className="back-link" href={hrefFor({ view: 'roles', page: { kind: 'edit', id } })}>
          <Icon name="back" size={16} />
          {t('edit.back')}
        </a>
        <PageHeader title={t('emoji.loadFailed')} />
        <ErrorNotice error={loadError} onRetry={() => void load()} />
      </div>
    );
  }
  if (!view) return <p className="loading">{t('common.loading')}</p>;

  const moveLine = (axis: EmojiGridAxis, index: number, value: number) => {
    if (!sheet) return;
    setGrid((old) => (old ? moveEmojiGridLine(old, axis, index, value, sheet.width, sheet.height) : old));
  };
  const setGutter = (axis: 'x' | 'y', value: number) => {
    setGrid((old) => {
      if (!old) return old;
      const { cells: _dropped, ...rest } = old;
      return { ...rest, gutter: { ...old.gutter, [axis]: value } };
    });
  };

  const askToSave = async () => {
    if (!sheet || !grid || gridInvalid) return;
    setBusy(true);
    setError(undefined);
    const request = { id, sheet: sheet.name, grid };
    const [plan, preview] = await Promise.all([
      bridge.invoke('emoji.planSave', request),
      bridge.invoke('emoji.previewGrid', { ...request, size: 96 }),
    ]);
    setBusy(false);
    if (!plan.ok) return setError(plan.error);
    if (!preview.ok) return setError(preview.error);
    setReview({ plan: plan.value, preview: preview.value, grid });
  };

  const confirmSave = async () => {
    if (!review || !sheet) return;
    setBusy(true);
    setError(undefined);
    const result = await bridge.invoke('emoji.saveSheet', { id, sheet: review.plan.sheet, grid: review.grid, token: review.plan.token });
    setBusy(false);
    if (!result.ok) {
      setReview(undefined);
      return setError(result.error);
    }
    show(result.value.view);
    notify('success', t('emoji.done', { name: view.name }));
    onDone();
  };

  const header = (
    <>
      <a className="back-link" href={hrefFor({ view: 'roles', page: { kind: 'edit', id } })}>
        <Icon name="back" size={16} />
        {t('emoji.back', { name: view.name })}
      </a>
      <PageHeader
        title={t('emoji.title', { name: view.name })}
        subtitle={t('emoji.subtitle')}
        actions={
          <span className="role-heading-badge">
            <span className="avatar" aria-hidden="true">
              {view.emoji}
            </span>
            <span className="mono">{view.id}</span>
          </span>
        }
      />
      {error ? <ErrorNotice error={error} focus /> : null}
    </>
  );

  if (!sheet || !grid) {
    return (
      <div className="page emoji-page">
        {header}
        <SheetPicker large busy={busy} onFile={(file) => void importFile(file)} />
      </div>
    );
  }

  if (review) {
    return (
      <div className="page emoji-page">
        {header}
        <EmojiSaveReview
          ref={reviewRef}
          plan={review.plan}
          preview={review.preview}
          busy={busy}
          onBack={() => setReview(undefined)}
          onConfirm={() => void confirmSave()}
        />
      </div>
    );
  }

  return (
    <div className="page emoji-page">
      {header}
      <div className="emoji-layout">
        <div className="emoji-main">
          <section
            className={drop.dragging ? 'card sheet-card sheet-drop-active' : 'card sheet-card'}
            aria-labelledby="grid-title"
            {...drop.handlers}
          >
            <div className="sheet-card-head">
              <div>
                <h2 id="grid-title" className="card-title">
                  {t('emoji.grid.title')}
                </h2>
                <p className="sheet-meta">
                  <span className="mono">{sheet.name}</span>
                  <span>{t('emoji.sheet.meta', { width: sheet.width, height: sheet.height, size: formatBytes(sheet.bytes) })}</span>
                </p>
              </div>
              <span className={sheet.inSignature ? 'badge emoji-badge-signed' : 'badge badge-muted'} data-testid="emoji-sheet-status">
                {sheet.inSignature ? t('emoji.status.signed') : sheet.staged ? t('emoji.status.staged') : t('emoji.status.unsaved')}
              </span>
            </div>
            <p className="field-help">{t('emoji.grid.help')}</p>
            {view.gridProblem ? (
              <p className="callout" role="status">
                {t('emoji.grid.fileProblem')} <span className="mono">{view.gridProblem}</span>
              </p>
            ) : null}
            {grid.cells ? <p className="callout emoji-callout-info">{t('emoji.grid.cellsFromFile')}</p> : null}
            <GridOverlay
              image={{ src: sheet.dataUrl, width: sheet.width, height: sheet.height, alt: t('emoji.sheetAlt', { name: view.name }) }}
              grid={grid}
              onMove={moveLine}
            />
            {gridInvalid ? (
              <p className="field-error" role="alert">
                {t('emoji.grid.invalid', { min: EMOJI_SHEET_LIMITS.minCell })}
              </p>
            ) : null}
            <div className="sheet-toolbar">
              <button type="button" className="button button-secondary button-small" onClick={() => setGrid(evenEmojiGrid(grid))}>
                {t('emoji.grid.even')}
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => setGrid(defaultEmojiGrid(sheet.width, sheet.height))}
              >
                {t('emoji.grid.reset')}
              </button>
              <span className="toolbar-spacer" />
              <SheetPicker busy={busy} onFile={(file) => void importFile(file)} />
            </div>
            {view.versions > 1 ? <p className="field-help">{t('emoji.sheet.versions', { count: view.versions })}</p> : null}
          </section>
          <section className="card" aria-labelledby="fields-title">
            <div className="sheet-card-head">
              <h2 id="fields-title" className="card-title">
                {t('emoji.fields.title')}
              </h2>
              <span className="field-tag">{t('emoji.fields.unit')}</span>
            </div>
            <GridFields grid={grid} width={sheet.width} height={sheet.height} onMove={moveLine} onGutter={setGutter} />
          </section>
        </div>

        <div className="emoji-side">
          <section className="card" aria-labelledby="previews-title">
            <h2 id="previews-title" className="card-title">
              {t('emoji.previews.title')}
            </h2>
            <p className="field-help">{t('emoji.previews.help')}</p>
            <MoodPreviews image={image} rects={rects} />
          </section>
          {view.cells.length > 0 ? (
            <section className="card" aria-labelledby="saved-title">
              <h2 id="saved-title" className="card-title">
                {t('emoji.saved.title')}
              </h2>
              <p className="field-help">{t('emoji.saved.help')}</p>
              <MoodImages cells={view.cells} testId="emoji-saved-cells" />
            </section>
          ) : null}
        </div>
      </div>
      <div className="form-actions emoji-actions">
        <a className="button button-secondary" href={hrefFor({ view: 'roles', page: { kind: 'edit', id } })}>
          {t('common.cancel')}
        </a>
        <button type="button" className="button button-primary" disabled={busy || gridInvalid} onClick={() => void askToSave()}>
          <Icon name="check" size={16} />
          {t('emoji.save')}
        </button>
      </div>
    </div>
  );
}
