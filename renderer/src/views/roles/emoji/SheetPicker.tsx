import { useRef, useState, type DragEvent } from 'react';
import { EMOJI_SHEET_LIMITS } from '../../../../../common/emoji-grid.js';
import { Icon } from '../../../components/icons.js';
import { useI18n } from '../../../i18n/i18n.js';
import { formatBytes } from './sheet-file.js';

const ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';

/** Drag-and-drop of one file onto an element; `dragging` while a file is over it. */
export function useFileDrop(onFile: (file: File) => void, disabled = false) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  return {
    dragging,
    handlers: {
      onDragEnter: (event: DragEvent) => {
        if (disabled || !hasFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver: (event: DragEvent) => {
        if (disabled || !hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave: () => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        if (disabled) return;
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        const file = event.dataTransfer.files[0];
        if (file) onFile(file);
      },
    },
  };
}

/**
 * The file chooser: a real button (keyboard users reach it) that opens a hidden file input.
 * `large` is the empty state's drop zone; otherwise a compact "use another image" button.
 */
export function SheetPicker({ onFile, busy, large }: { onFile: (file: File) => void; busy: boolean; large?: boolean }) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const drop = useFileDrop(onFile, busy);
  const chooser = (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={t('emoji.pick.inputLabel')}
        data-testid="emoji-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ''; // choosing the same file again still counts
          if (file) onFile(file);
        }}
      />
      <button
        type="button"
        className={large ? 'button button-primary' : 'button button-secondary'}
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        <Icon name="upload" size={16} />
        {busy ? t('emoji.pick.importing') : large ? t('emoji.pick.button') : t('emoji.pick.replace')}
      </button>
    </>
  );
  if (!large) return chooser;
  return (
    <section
      className={drop.dragging ? 'card sheet-drop sheet-drop-active' : 'card sheet-drop'}
      aria-labelledby="sheet-drop-title"
      {...drop.handlers}
    >
      <div className="sheet-drop-icon" aria-hidden="true">
        <Icon name="image" size={34} />
      </div>
      <h2 id="sheet-drop-title" className="card-title">
        {t('emoji.pick.title')}
      </h2>
      <p className="card-text">{t('emoji.pick.body')}</p>
      <ol className="sheet-drop-rows">
        <li>{t('emoji.pick.row1')}</li>
        <li>{t('emoji.pick.row2')}</li>
        <li>{t('emoji.pick.row3')}</li>
      </ol>
      <div className="sheet-drop-actions">
        {chooser}
        <span className="sheet-drop-hint">{drop.dragging ? t('emoji.pick.dropHere') : t('emoji.pick.drop')}</span>
      </div>
      <p className="field-help">{t('emoji.pick.formats', { limit: formatBytes(EMOJI_SHEET_LIMITS.maxBytes) })}</p>
    </section>
  );
}
