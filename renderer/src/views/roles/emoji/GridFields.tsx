import { useId, useState } from 'react';
import type { EmojiGrid, EmojiGridAxis } from '../../../../../common/emoji-grid.js';
import { useI18n } from '../../../i18n/i18n.js';
import { lineName } from './GridOverlay.js';

/**
 * A whole-pixel input that applies what is typed as soon as it is a number in range (the grid
 * and previews follow), and shows the value actually applied once it loses focus (a line is
 * kept between its neighbours, so 5 may become 108).
 */
function PixelField({
  label,
  value,
  max,
  onCommit,
  testId,
}: {
  label: string;
  value: number;
  max: number;
  onCommit(value: number): void;
  testId: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string) => {
    const number = Number(text);
    if (text.trim() !== '' && Number.isInteger(number) && number >= 0 && number <= max) onCommit(number);
  };
  return (
    <div className="field pixel-field">
      <label className="pixel-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input pixel-input"
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={1}
        value={draft ?? String(value)}
        data-testid={testId}
        onChange={(event) => {
          setDraft(event.target.value);
          commit(event.target.value);
        }}
        onBlur={() => setDraft(null)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(event.currentTarget.value);
            setDraft(null);
          }
        }}
      />
    </div>
  );
}

/** Exact values for every line and the gutters, in sheet pixels. */
export function GridFields({
  grid,
  width,
  height,
  onMove,
  onGutter,
}: {
  grid: EmojiGrid;
  width: number;
  height: number;
  onMove(axis: EmojiGridAxis, index: number, value: number): void;
  onGutter(axis: 'x' | 'y', value: number): void;
}) {
  const { t } = useI18n();
  const lines = (axis: EmojiGridAxis) => (
    <fieldset className="pixel-group">
      <legend className="pixel-legend">{axis === 'columns' ? t('emoji.fields.columns') : t('emoji.fields.rows')}</legend>
      <div className="pixel-row">
        {grid[axis].map((value, index) => (
          <PixelField
            key={index}
            label={lineName(t, axis, index)}
            value={value}
            max={axis === 'columns' ? width : height}
            testId={`grid-${axis}-${index}`}
            onCommit={(next) => onMove(axis, index, next)}
          />
        ))}
      </div>
    </fieldset>
  );
  return (
    <div className="grid-fields">
      {lines('columns')}
      {lines('rows')}
      <fieldset className="pixel-group">
        <legend className="pixel-legend">{t('emoji.fields.gutter')}</legend>
        <div className="pixel-row pixel-row-two">
          <PixelField
            label={t('emoji.fields.gutterX')}
            value={grid.gutter.x}
            max={Math.floor(width / 3)}
            testId="grid-gutter-x"
            onCommit={(value) => onGutter('x', value)}
          />
          <PixelField
            label={t('emoji.fields.gutterY')}
            value={grid.gutter.y}
            max={Math.floor(height / 3)}
            testId="grid-gutter-y"
            onCommit={(value) => onGutter('y', value)}
          />
        </div>
      </fieldset>
    </div>
  );
}
