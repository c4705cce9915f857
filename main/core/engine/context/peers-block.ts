import { firstLine } from '../../store/roles/role-definition.js';
import { startWithin, textBlock, type ContextBlock, EMPTY_BLOCK } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * The peers list (ROLE-11): injected at SessionStart (role_list_peers) so a role knows which
 * companions it can turn to; with a single role the block is left out. It is also what makes
 * "before delegating, check the role is on the list; never invent a companion" checkable. A RoleDefinition fits PeerInfo as it is.
 */
export interface PeerInfo {
  id: string;
  name: string;
  emoji?: string;
  nature: string;
}

const NATURE_CHARS = 100;

function peerLine(peer: PeerInfo): string {
  const nature = firstLine(peer.nature);
  const short = nature.length > NATURE_CHARS ? `${startWithin(nature, NATURE_CHARS - 1)}…` : nature;
  const who = [peer.id, peer.name, peer.emoji].filter(Boolean).join(' ');
  return short ? `- ${who}: ${short}` : `- ${who}`;
}

/** `peers` may include the current role; it is left out of its own list. */
export function peersBlock(peers: readonly PeerInfo[], self: { id: string; name: string }, language: ContextLanguage): ContextBlock {
  const others = peers.filter((peer) => peer.id !== self.id);
  if (others.length === 0) return EMPTY_BLOCK;
  const heading = say(language, '## 其他角色（可以派工的同伴）', '## Other roles (peers that can be delegated to)');
  const how = say(
    language,
    `需要某位同伴的專長時，可以請他作為 sub agent 協助（定義由 \`kioku role agent <ID>\` 匯出，執行時設 \`ROLE_SKIP_INSTANCE_LOCK=1\`），完成後由${self.name}轉述結果。清單以外沒有其他角色。`,
    `When a peer's skills are needed, that peer can help as a sub agent (definition exported by \`kioku role agent <ID>\`, run with \`ROLE_SKIP_INSTANCE_LOCK=1\`); ${self.name} then relays the result. There are no roles beyond this list.`,
  );
  const block = textBlock([heading, ...others.map(peerLine), how].join('\n'));
  return { ...block, shown: others.length };
}
