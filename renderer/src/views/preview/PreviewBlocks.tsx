import type { SessionPreviewBlock } from '../../../../common/ui-contract.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages-zh-TW.js';

const BLOCK_LABELS: Record<string, MessageKey> = {
  soul: 'preview.block.soul',
  agents: 'preview.block.agents',
  peers: 'preview.block.peers',
  relationship: 'preview.block.relationship',
  facts: 'preview.block.facts',
  projectMemory: 'preview.block.projectMemory',
  projectWaiting: 'preview.block.projectWaiting',
  journal: 'preview.block.journal',
  leftOut: 'preview.block.leftOut',
  inbox: 'preview.block.inbox',
  memory: 'preview.block.memory',
  bonds: 'preview.block.bonds',
  dialog: 'preview.block.dialog',
  consent: 'preview.block.consent',
  sleepy: 'preview.block.sleepy',
  brief: 'preview.block.brief',
  greeting: 'preview.block.greeting',
};

/** A block's name in words; a block this version does not know by its own name. */
export function useBlockLabel(): (name: string) => string {
  const { t } = useI18n();
  return (name) => (BLOCK_LABELS[name] ? t(BLOCK_LABELS[name]) : name);
}

/** Blocks worth a row: those with text, or something left out of them. */
export function visibleBlocks(blocks: readonly SessionPreviewBlock[]): SessionPreviewBlock[] {
  return blocks.filter((block) => block.chars > 0 || block.omitted > 0 || block.replaced);
}

/** Each block of the load: its characters against its budget (shrunk to fit, when it was), and its items. */
export function PreviewBlocks({ blocks }: { blocks: SessionPreviewBlock[] }) {
  const { t, formatNumber } = useI18n();
  const label = useBlockLabel();
  return (
    <table className="preview-blocks" data-testid="preview-blocks">
      <thead>
        <tr>
          <th scope="col">{t('preview.col.block')}</th>
          <th scope="col">{t('preview.col.size')}</th>
          <th scope="col">{t('preview.col.items')}</th>
        </tr>
      </thead>
      <tbody>
        {visibleBlocks(blocks).map((block) => {
          const budget = block.budget;
          const ratio = budget && budget.configured > 0 ? Math.min(1, block.chars / budget.configured) : 0;
          return (
            <tr key={block.name} data-block={block.name}>
              <th scope="row">{label(block.name)}</th>
              <td>
                {budget ? (
                  <>
                    <span className="preview-size">
                      {formatNumber(block.chars)} / {formatNumber(budget.configured)}
                    </span>
                    <span className="preview-meter" aria-hidden="true">
                      <span className="preview-meter-fill" style={{ width: `${ratio * 100}%` }} />
                    </span>
                    {budget.effective !== budget.configured ? (
                      <span className="preview-note">
                        {t('preview.shrunk', { configured: formatNumber(budget.configured), effective: formatNumber(budget.effective) })}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span className="preview-size">{t('preview.noBudget', { chars: formatNumber(block.chars) })}</span>
                )}
              </td>
              <td>
                {block.chars > 0 && block.shown > 0 ? <span>{t('preview.shown', { shown: formatNumber(block.shown) })}</span> : null}
                {block.chars === 0 && !block.replaced ? <span className="preview-note">{t('preview.empty')}</span> : null}
                {block.omitted > 0 ? (
                  <span className="badge preview-badge-warn preview-omitted">
                    {t('preview.omitted', { n: formatNumber(block.omitted) })}
                  </span>
                ) : null}
                {block.replaced ? <span className="badge preview-badge-warn">{t('preview.replaced')}</span> : null}
                {block.opening ? <span className="badge badge-muted">{t('preview.opening')}</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Everything that exists but did not make it into the load, block by block. */
export function LeftOutList({ blocks, omitted }: { blocks: SessionPreviewBlock[]; omitted: Record<string, number> }) {
  const { t, formatNumber } = useI18n();
  const label = useBlockLabel();
  const items = blocks.flatMap((block) => {
    if (block.replaced && (block.name === 'facts' || block.name === 'projectMemory'))
      return [t('preview.leftOut.file', { block: label(block.name) })];
    const n = block.name === 'peers' ? (omitted.peers ?? 0) : block.omitted;
    return n > 0 ? [t('preview.leftOut.item', { block: label(block.name), n: formatNumber(n) })] : [];
  });
  return items.length ? (
    <ul className="preview-left-out" data-testid="preview-left-out">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  ) : (
    <p className="card-text muted" data-testid="preview-left-out">
      {t('preview.leftOut.none')}
    </p>
  );
}
