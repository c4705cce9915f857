import type { KiokuConfig } from '../main/core/platform/config/config.js';
import { createRole, planRoleChange } from '../main/core/store/roles/role-editor.js';

/**
 * A role for a bench's home, made the way `kioku role new` makes one (a colleague who is a calm
 * engineering partner); nothing when it is already there.
 */
export function createBenchRole(config: KiokuConfig, role: { id: string; name: string; emoji: string; nature: string }): void {
  const plan = planRoleChange(config, { ...role, vibe: '簡潔直白。', relationship: '使用者的同事。' });
  if (plan.kind === 'create') createRole(config, plan);
}
