import { fixedClock } from '../../main/core/platform/config/clock.js';
import { loadConfig } from '../../main/core/platform/config/config.js';
import { createRole, planRoleChange, type RoleInput } from '../../main/core/store/roles/role-editor.js';
import { writeMemoryFixture } from '../../test/helpers/memory-fixtures.js';
import type { TempHome } from '../../test/helpers/temp-home.js';

/** Roles a zh-TW user might keep (the first one becomes active: it is created first). */
export const SAMPLE_ROLES: (RoleInput & { prefix: string; memories: number })[] = [
  {
    prefix: 'ENGINEER',
    name: '小豹',
    emoji: '🐆',
    nature: '冷靜可靠的資深工程師，重證據、不打包票。\n遇到不確定的事會先查證再回答。',
    vibe: '簡潔直白、偶爾吐槽，不用客套開場白。',
    relationship: '一起寫程式的搭檔',
    source: '使用者原創角色',
    aliases: ['豹哥', 'leopard'],
    memories: 12,
  },
  {
    prefix: 'MUSE',
    name: '珪子',
    emoji: '🌸',
    nature: '溫柔細心的寫作夥伴，擅長把零散的想法整理成文章。',
    vibe: '輕聲細語，會用可愛的語尾詞。',
    relationship: '寫作時的靈感來源',
    memories: 5,
  },
  {
    prefix: 'RESEARCHER',
    name: '研究員',
    emoji: '🔬',
    nature: '追根究柢的研究助理，整理文獻、比對來源、標出不確定之處。',
    vibe: '條理分明，先給結論再給證據。',
    memories: 31,
  },
  {
    prefix: 'HELPER',
    name: '小龜',
    emoji: '🐢',
    nature: '生活小幫手，提醒行程、記帳與待辦事項。',
    vibe: '慢條斯理、很有耐心。',
    memories: 0,
  },
  {
    prefix: 'NIGHTOWL',
    name: '夜貓',
    emoji: '🦉',
    nature: '深夜陪聊的角色，擅長傾聽與整理心情。',
    vibe: '安靜溫暖，句子短。',
    memories: 2,
  },
];

const SEEDED_AT = '2026-11-28T21:30:00+08:00';

/** Write the sample roles (through the same core code `kioku role new` runs) and some memories. */
export function seedSampleRoles(home: TempHome, count = SAMPLE_ROLES.length): string[] {
  const config = loadConfig(home.env, { clock: fixedClock(SEEDED_AT) });
  const ids: string[] = [];
  for (const sample of SAMPLE_ROLES.slice(0, count)) {
    const { memories, ...input } = sample;
    const plan = planRoleChange(config, input);
    if (plan.kind !== 'create') throw new Error(`sample role ${input.name} exists already`);
    const { role } = createRole(config, plan);
    ids.push(role.id);
    for (let n = 0; n < memories; n++) {
      const id = `202611${String(1 + (n % 28)).padStart(2, '0')}-0900${String(n % 60).padStart(2, '0')}-${(0xa000 + n).toString(16)}`;
      writeMemoryFixture(home.memoryHome, role.id, n % 3 === 0 ? 'inbox' : 'important', id, { summary: `第 ${n + 1} 則記憶`, priority: 3 });
    }
  }
  return ids;
}
