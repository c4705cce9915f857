import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { EMOJI_MOODS, emojiCellRects, type EmojiGrid, type EmojiGridAxis } from '../../../../../common/emoji-grid.js';
import { useI18n, type Translate } from '../../../i18n/i18n.js';
import { moodKey } from './sheet-file.js';

export interface SheetImageInfo {
  src: string;
  width: number;
  height: number;
  alt: string;
}

/** What a line is called, for its slider's label: "左邊界", "第 1、2 欄之間". */
export function lineName(t: Translate, axis: EmojiGridAxis, index: number): string {
  if (axis === 'columns') {
    if (index === 0) return t('emoji.grid.left');
    if (index === 3) return t('emoji.grid.right');
    return t('emoji.grid.betweenColumns', { a: index, b: index + 1 });
  }
  if (index === 0) return t('emoji.grid.top');
  if (index === 3) return t('emoji.grid.bottom');
  return t('emoji.grid.betweenRows', { a: index, b: index + 1 });
}

const pct = (value: number, size: number) => `${(value / size) * 100}%`;

/**
 * The sheet with its grid drawn over it: the cells clear, margins and gutters dimmed, each
 * cell labelled with its mood. The eight lines are sliders: drag them with a pointer, or focus
 * one and use the arrow keys (Shift: 10 px; Home/End: as far as it goes). Positions are in
 * sheet pixels; the overlay scales with the image, so any window size works.
 */
export function GridOverlay({
  image,
  grid,
  onMove,
}: {
  image: SheetImageInfo;
  grid: EmojiGrid;
  onMove(axis: EmojiGridAxis, index: number, value: number): void;
}) {
  const { t } = useI18n();
  const stage = useRef<HTMLDivElement>(null);
  const { width, height } = image;
  const rects = emojiCellRects(grid);
  const dim = `M0 0H${width}V${height}H0Z ${rects.map((r) => `M${r.x} ${r.y}h${r.width}v${r.height}h${-r.width}Z`).join(' ')}`;

  const valueAt = (axis: EmojiGridAxis, event: PointerEvent) => {
    const box = stage.current!.getBoundingClientRect();
    return axis === 'columns' ? ((event.clientX - box.left) / box.width) * width : ((event.clientY - box.top) / box.height) * height;
  };

  const handle = (axis: EmojiGridAxis, index: number) => {
    const value = grid[axis][index]!;
    const size = axis === 'columns' ? width : height;
    const name = lineName(t, axis, index);
    const onKeyDown = (event: KeyboardEvent) => {
      const step = event.shiftKey ? 10 : 1;
      const keys: Record<string, number> =
        axis === 'columns'
          ? { ArrowLeft: value - step, ArrowRight: value + step, Home: 0, End: size }
          : { ArrowUp: value - step, ArrowDown: value + step, Home: 0, End: size };
      const next = keys[event.key];
      if (next === undefined) return;
      event.preventDefault();
      onMove(axis, index, next);
    };
    return (
      <div
        key={`${axis}-${index}`}
        role="slider"
        tabIndex={0}
        className={`grid-handle grid-handle-${axis === 'columns' ? 'v' : 'h'}`}
        style={axis === 'columns' ? { left: pct(value, width) } : { top: pct(value, height) }}
        aria-label={t('emoji.grid.lineLabel', { name })}
        aria-orientation={axis === 'columns' ? 'horizontal' : 'vertical'}
        aria-valuemin={0}
        aria-valuemax={size}
        aria-valuenow={value}
        aria-valuetext={`${value} px`}
        data-axis={axis}
        data-index={index}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          event.currentTarget.setPointerCapture(event.pointerId);
          event.currentTarget.focus();
        }}
        onPointerMove={(event) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) onMove(axis, index, valueAt(axis, event));
        }}
        onPointerUp={(event) => event.currentTarget.releasePointerCapture(event.pointerId)}
      />
    );
  };

  return (
    <div className="sheet-stage" ref={stage} data-testid="emoji-grid">
      <img className="sheet-image" src={image.src} alt={image.alt} width={width} height={height} draggable={false} />
      <svg className="sheet-overlay" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <path className="sheet-dim" d={dim} fillRule="evenodd" />
        {rects.map((r, index) => (
          <rect
            key={index}
            className={grid.cells ? 'sheet-cell sheet-cell-custom' : 'sheet-cell'}
            x={r.x}
            y={r.y}
            width={r.width}
            height={r.height}
            vectorEffect="non-scaling-stroke"
          />
        ))}
      </svg>
      {rects.map((r, index) => (
        <span key={index} className="sheet-cell-label" aria-hidden="true" style={{ left: pct(r.x, width), top: pct(r.y, height) }}>
          {index + 1}. {t(moodKey(EMOJI_MOODS[index]!.id))}
        </span>
      ))}
      {([0, 1, 2, 3] as const).map((index) => handle('columns', index))}
      {([0, 1, 2, 3] as const).map((index) => handle('rows', index))}
    </div>
  );
}
