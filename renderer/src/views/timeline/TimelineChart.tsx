import { MEMORY_TYPES } from '../../../../common/memory.js';
import type { MemoryTimeStats } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { buildChart } from './chart-model.js';
import { typeLabel } from './memory-labels.js';

const WEEKS_SHOWN = 26;
const WIDTH = 720;
const HEIGHT = 150;
const AXIS = 30;
const BOTTOM = 22;

/**
 * Memories by type per week, stacked (plain SVG: a chart library would be most of the bundle for
 * one picture). Colours come from the CSS type tokens, so light and dark both work; the legend
 * names each type in the user's language, and each bar says its numbers as a tooltip and to
 * screen readers.
 */
export function TimelineChart({ stats }: { stats: MemoryTimeStats }) {
  const { t, language, formatNumber } = useI18n();
  const model = buildChart(stats.weeks, WEEKS_SHOWN);
  const plotWidth = WIDTH - AXIS;
  const plotHeight = HEIGHT - BOTTOM;
  const step = model.bars.length ? plotWidth / model.bars.length : plotWidth;
  const barWidth = Math.max(4, Math.min(26, step * 0.68));
  const y = (value: number) => plotHeight - (value / model.scaleMax) * (plotHeight - 8);
  const weekLabel = (start: string) =>
    new Intl.DateTimeFormat(language, { month: 'numeric', day: 'numeric' }).format(new Date(`${start}T00:00:00`));
  // Counted back from the latest week, so this week always has its date and labels never crowd.
  const labelEvery = Math.max(1, Math.ceil(model.bars.length / 7));
  const describe = (bar: (typeof model.bars)[number]) =>
    bar.total === 0
      ? t('chart.weekEmpty', { week: weekLabel(bar.start) })
      : t('chart.week', {
          week: weekLabel(bar.start),
          total: formatNumber(bar.total),
          parts: bar.segments.map((s) => `${typeLabel(s.type, language)} ${formatNumber(s.count)}`).join(t('chart.separator')),
        });

  return (
    <figure className="timeline-chart">
      {model.bars.length === 0 ? (
        <p className="timeline-chart-empty">{t('chart.empty')}</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="timeline-chart-svg"
          role="group"
          aria-label={t('chart.label', { weeks: model.bars.length })}
        >
          {model.ticks.map((tick) => (
            <g key={tick} className="chart-grid" aria-hidden="true">
              <line x1={AXIS} x2={WIDTH} y1={y(tick)} y2={y(tick)} />
              <text x={AXIS - 8} y={y(tick) + 4} textAnchor="end">
                {formatNumber(tick)}
              </text>
            </g>
          ))}
          {model.bars.map((bar, i) => {
            const x = AXIS + i * step + (step - barWidth) / 2;
            return (
              <g key={bar.start} role="img" aria-label={describe(bar)}>
                <title>{describe(bar)}</title>
                {/* A transparent column so the tooltip shows anywhere over the week. */}
                <rect className="chart-hit" x={AXIS + i * step} y={0} width={step} height={plotHeight} />
                {bar.segments.map((segment) => (
                  <rect
                    key={segment.type}
                    className={`chart-segment type-fill-${segment.type}`}
                    x={x}
                    width={barWidth}
                    y={y(segment.from + segment.count)}
                    height={Math.max(1, y(segment.from) - y(segment.from + segment.count) - 1)}
                    rx={2}
                  />
                ))}
                {(model.bars.length - 1 - i) % labelEvery === 0 ? (
                  <text className="chart-axis-label" x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" aria-hidden="true">
                    {weekLabel(bar.start)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      )}
      <figcaption className="chart-legend">
        {MEMORY_TYPES.map((type) => (
          <span key={type} className="chart-legend-item">
            <span className={`chart-swatch type-fill-${type}`} aria-hidden="true" />
            {typeLabel(type, language)}
            <span className="chart-legend-count">{formatNumber(stats.types[type] ?? 0)}</span>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
