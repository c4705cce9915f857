import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchOf, plannerConfig } from '../../../../../test/helpers/local-planner-inbox.js';
import type { InboxItem } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';
import { cleanPlanForStorage } from '../plan-text-cleaner.js';

/**
 * Issue 14: "sleep even cuts the JWT into tags and cues". An inbox file can hold a secret in clear
 * (edited by hand, synced from another machine, written by an older version); the local planner
 * derives tags and cues from the items' words, and a piece of a token cut out as a tag no longer
 * looks like a secret when the plan's texts are cleaned one by one (plan-text-cleaner.ts). So the
 * planner derives them from the redacted items.
 */
describe('local planner: tags and cues come from redacted text', () => {
  it('leaves no piece of a JWT or an npm token in the plan, even after cleaning', async () => {
    const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwt = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'admin', iat: 1767225600 })}.${crypto.randomBytes(32).toString('base64url')}`;
    const npm = `npm_${crypto.randomBytes(36).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
    // A procedural memory without cues gets its user's first words as one (memory-text.ts cuesOf),
    // clipped to 16 characters (an ellipsis included): the head of the JWT, which alone is no longer a JWT.
    const item: InboxItem = {
      id: '20261201-210000-aaaaaa',
      path: '/inbox/20261201-210000-aaaaaa.md',
      summary: '部署步驟',
      body: `主旨：部署步驟\n\n細節：\n- 使用者原話：${jwt} 先登入，再用 ${npm} 發佈\n- 角色當時的回應：好`,
      tags: [],
      cues: [],
      priority: 4,
      memory_type: 'procedural',
      relevance: [],
      created: '2026-12-01T21:00:00+08:00',
    };
    const plan = await createLocalPlanner(plannerConfig()).plan(batchOf([item], []), 'p');
    const { plan: cleaned } = await cleanPlanForStorage(plan);
    const text = JSON.stringify(cleaned);
    for (const piece of [...jwt.split('.').filter(Boolean), npm, jwt.slice(0, 12), npm.slice(0, 12)]) expect(text).not.toContain(piece);
    expect(cleaned.create.flatMap((c) => c.cues).length, 'the procedural memory still has a cue').toBeGreaterThan(0);
  });
});
