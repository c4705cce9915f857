import { useEffect, useRef } from 'react';
import { EMOJI_MOODS, type EmojiMoodId, type EmojiRect } from '../../../../../common/emoji-grid.js';
import { useI18n } from '../../../i18n/i18n.js';
import { moodKey } from './sheet-file.js';

const SIZE = 88;

/** One mood cut out of the loaded sheet with a canvas: a preview only (main cuts with sharp). */
function CanvasCell({ image, rect, label }: { image: HTMLImageElement | undefined; rect: EmojiRect; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const scale = window.devicePixelRatio || 1;
    canvas.current!.width = SIZE * scale;
    canvas.current!.height = SIZE * scale;
    context.clearRect(0, 0, SIZE * scale, SIZE * scale);
    if (!image || rect.width <= 0 || rect.height <= 0) return;
    // Fit the cell inside the square, keeping its shape.
    const fit = Math.min((SIZE * scale) / rect.width, (SIZE * scale) / rect.height);
    const w = rect.width * fit;
    const h = rect.height * fit;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, rect.x, rect.y, rect.width, rect.height, (SIZE * scale - w) / 2, (SIZE * scale - h) / 2, w, h);
  }, [image, rect.x, rect.y, rect.width, rect.height]);
  return <canvas ref={canvas} className="mood-image" role="img" aria-label={label} />;
}

/** The nine moods as the current grid cuts them, live while a line moves. */
export function MoodPreviews({ image, rects }: { image: HTMLImageElement | undefined; rects: EmojiRect[] }) {
  const { t } = useI18n();
  return (
    <ol className="mood-grid" data-testid="emoji-previews">
      {EMOJI_MOODS.map((mood, index) => (
        <li key={mood.id} className="mood-tile" data-mood={mood.id}>
          <CanvasCell image={image} rect={rects[index]!} label={t('emoji.previewAlt', { mood: t(moodKey(mood.id)) })} />
          <span className="mood-name">{t(moodKey(mood.id))}</span>
        </li>
      ))}
    </ol>
  );
}

/** Images made by main (the saved cells, or the exact cut before a save), in mood order. */
export function MoodImages({ cells, testId }: { cells: { mood: EmojiMoodId; dataUrl: string }[]; testId?: string }) {
  const { t } = useI18n();
  return (
    <ol className="mood-grid" data-testid={testId}>
      {cells.map((cell) => (
        <li key={cell.mood} className="mood-tile" data-mood={cell.mood}>
          <img className="mood-image" src={cell.dataUrl} alt={t('emoji.previewAlt', { mood: t(moodKey(cell.mood)) })} />
          <span className="mood-name">{t(moodKey(cell.mood))}</span>
        </li>
      ))}
    </ol>
  );
}
