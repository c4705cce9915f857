import { useMemo } from 'react';
import type { ConsolidatedCategory } from '../../../../common/memory.js';
import type { MindmapView } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import { categoryLabel } from '../timeline/memory-labels.js';
import { FONT, layoutMindmap, relatedOf, relatedPath, type LaidNode } from './mindmap-layout.js';

/** Shrunk this far a two-sided map stays legible; needing more, it is drawn one-sided instead. */
const MIN_SCALE = 0.85;

/**
 * The SVG of a mind map. Concepts are focusable (Tab, or a click): the focused one shows its
 * related concepts — the graph's edges, drawn only then so the picture stays calm. When the
 * two-sided tree would have to shrink much to fit `fitWidth` (a narrow window) it is drawn
 * one-sided instead; the stylesheet shrinks what is still too wide: no sideways scrolling.
 */
export function MindmapDrawing({
  map,
  focused,
  onFocus,
  fitWidth,
}: {
  map: MindmapView;
  focused: string | undefined;
  onFocus(id: string | undefined): void;
  fitWidth?: number;
}) {
  const { t, language } = useI18n();
  const layout = useMemo(() => {
    const input = { title: map.title, nodes: map.nodes, categoryLabel: (c: ConsolidatedCategory) => categoryLabel(c, language) };
    const both = layoutMindmap(input);
    return fitWidth !== undefined && both.width * MIN_SCALE > fitWidth ? layoutMindmap({ ...input, oneSided: true }) : both;
  }, [map, language, fitWidth]);
  const byId = useMemo(() => new Map(layout.nodes.map((node) => [node.id, node])), [layout]);
  const related = focused ? relatedOf(focused, map.edges) : [];
  const relatedIds = new Set(related.map((r) => r.other));
  const maxEdge = Math.max(1, ...related.map((r) => r.edge.weight));
  const weightOf = (node: LaidNode) => node.weight ?? 0;
  const heaviest = Math.max(1, ...map.nodes.map((n) => n.weight));

  const className = (node: LaidNode) => {
    const parts = [`mm-node`, `mm-${node.kind}`];
    if (node.category) parts.push(`mm-cat-${node.category}`);
    if (focused && node.id === focused) parts.push('mm-focused');
    else if (focused && node.kind === 'concept') parts.push(relatedIds.has(node.id) ? 'mm-related' : 'mm-dimmed');
    return parts.join(' ');
  };

  return (
    <svg
      className={focused ? 'mindmap-svg mindmap-svg-focus' : 'mindmap-svg'}
      viewBox={layout.viewBox}
      width={layout.width}
      height={layout.height}
      role="group"
      aria-label={t('mindmap.drawingLabel', { name: map.title })}
      data-testid="mindmap-svg"
    >
      <g className="mm-links" aria-hidden="true">
        {layout.links.map((link) => (
          <path key={`${link.from}-${link.to}`} className={`mm-link mm-cat-${link.category}`} d={link.path} />
        ))}
      </g>
      <g className="mm-related-links" aria-hidden="true">
        {related.map(({ other, edge }) => {
          const a = byId.get(focused!);
          const b = byId.get(other);
          return a && b ? (
            <path
              key={other}
              className="mm-related-link"
              d={relatedPath(a, b)}
              style={{ strokeWidth: 1.5 + (3 * edge.weight) / maxEdge }}
            />
          ) : null;
        })}
      </g>
      {layout.nodes.map((node) => {
        const concept = node.kind === 'concept';
        const strength = concept ? weightOf(node) / heaviest : 0;
        const description = concept
          ? t('mindmap.nodeLabel', {
              label: map.nodes.find((n) => n.id === node.id)?.label ?? node.label,
              count: weightOf(node),
              category: categoryLabel(node.category!, language),
            })
          : undefined;
        return (
          <g
            key={node.id}
            className={className(node)}
            transform={`translate(${node.x},${node.y})`}
            data-node-id={node.id}
            {...(concept
              ? {
                  tabIndex: 0,
                  role: 'button',
                  'aria-label': description,
                  'aria-pressed': focused === node.id,
                  onFocus: () => onFocus(node.id),
                  onMouseEnter: () => onFocus(node.id),
                  onClick: () => onFocus(node.id),
                }
              : { 'aria-hidden': true })}
          >
            {concept ? <title>{description}</title> : null}
            <rect x={-node.width / 2} y={-node.height / 2} width={node.width} height={node.height} rx={node.height / 2} />
            <text
              textAnchor="middle"
              dominantBaseline="central"
              fontSize={FONT[node.kind]}
              fontWeight={node.kind === 'concept' ? (strength > 0.6 ? 700 : strength > 0.3 ? 600 : 500) : 700}
            >
              {node.label}
            </text>
            {concept && weightOf(node) > 1 ? (
              <g className="mm-weight" transform={`translate(${(node.side === -1 ? -1 : 1) * (node.width / 2)},${-node.height / 2 + 2})`}>
                <circle r={9} />
                <text textAnchor="middle" dominantBaseline="central" fontSize={10.5}>
                  {weightOf(node)}
                </text>
              </g>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
