import { KiokuError } from '../../../../common/errors.js';
import type { StoredMemory } from '../../../../common/memory.js';
import { loadRoleMemories } from './memory-layout.js';

/** One memory of a role by its ID (any category, inbox included), or a NOT_FOUND error naming it. */
export function findMemory(memoryHome: string, role: string, id: string): StoredMemory {
  const wanted = id.trim();
  const found = loadRoleMemories(memoryHome, role).memories.find((memory) => memory.id === wanted);
  if (found) return found;
  throw new KiokuError('NOT_FOUND', `no memory "${id}" in ${role}'s memories`, {
    hint: `list them with \`kioku memory recall --role ${role} --query "<keywords>"\`; a forgotten one is brought back with \`kioku memory restore\``,
  });
}
