import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { writeMemoryFixture } from '../helpers/memory-fixtures.js';
import {
  PlannerError,
  type CollectedBatch,
  type Planner,
  type PlannerFailureKind,
  type SleepPlan,
} from '../../main/core/engine/sleep/sleep-plan.js';

/**
 * Fixtures for the consolidation tests: inbox and consolidated memories with fixed ids (so two
 * homes built alike are byte-identical), and a scripted planner — deterministic, no LLM — that
 * creates, merges, discards, links and bonds by the item's marker number, and can be told to
 * fail the way SLEEP-5 describes.
 */
export const ROLE = 'SILICA01';

export interface InboxSpec {
  id: string;
  body: string;
  summary?: string;
  tags?: string[];
  memory_type?: string;
  created?: string;
  relevance?: string[];
}

export function writeInbox(memoryHome: string, spec: InboxSpec, role = ROLE): string {
  return writeMemoryFixture(
    memoryHome,
    role,
    'inbox',
    spec.id,
    {
      summary: spec.summary ?? spec.body.split('。')[0]!.slice(0, 30),
      tags: spec.tags ?? [],
      priority: 3,
      memory_type: spec.memory_type ?? 'episodic',
      relevance: spec.relevance ?? [],
      retention_stage: 'working',
      sleep_stage: 'encoding',
      created: spec.created ?? '2026-11-29T10:00:00+08:00',
      updated: spec.created ?? '2026-11-29T10:00:00+08:00',
      hits: 0,
    },
    spec.body,
  );
}

export function writeExisting(
  memoryHome: string,
  id: string,
  fields: Record<string, unknown> & { category?: string },
  body: string,
  role = ROLE,
): string {
  const { category = 'important', ...rest } = fields;
  return writeMemoryFixture(
    memoryHome,
    role,
    category,
    id,
    {
      summary: body.slice(0, 20),
      tags: [],
      priority: 3,
      memory_type: 'semantic',
      created: '2026-11-01T09:00:00+08:00',
      updated: '2026-11-01T09:00:00+08:00',
      hits: 2,
      strength: 77,
      ...rest,
    },
    body,
  );
}

/** The marker number in an item's body (`記號-12`), or -1. */
export function markerOf(text: string): number {
  const m = /記號-(\d+)/.exec(text);
  return m ? Number(m[1]) : -1;
}

export type Fate = 'create' | 'merge' | 'discard';

/** What the scripted planner does with marker n: by n mod 4 (merge only when a target of the same type exists). */
export function fateOf(n: number): Fate {
  return (['create', 'merge', 'create', 'discard'] as const)[n % 4]!;
}

/** A plan for any batch, a pure function of the batch (and the existing bodies it carries). */
export function scriptedPlan(batch: CollectedBatch, planId: string, name = 'scripted'): SleepPlan {
  const plan: SleepPlan = {
    v: 1,
    id: planId,
    role: batch.role,
    planner: name,
    batch: batch.items.map((item) => item.id),
    create: [],
    merge: [],
    link: [],
    bonds: [],
    discard: [],
    corrections: [],
    digest: `整理 ${batch.items.map((item) => item.id).join(',')}`,
  };
  const merges = new Map<string, { body: string; sources: string[]; summary: string; tags: string[] }>();
  for (const item of batch.items) {
    const n = markerOf(item.body);
    let fate = fateOf(n);
    const target =
      fate === 'merge' ? batch.existing.find((ref) => ref.memory_type === item.memory_type && ref.body !== undefined) : undefined;
    if (fate === 'merge' && !target) fate = 'create';
    if (fate === 'discard') plan.discard.push({ source: item.id, reason: '雜訊' });
    else if (fate === 'merge' && target) {
      const merge = merges.get(target.id) ?? { body: target.body!, sources: [], summary: target.summary, tags: [...target.tags] };
      merge.body = `${merge.body}\n${item.body}`;
      merge.sources.push(item.id);
      merges.set(target.id, merge);
    } else {
      const key = `n${plan.create.length + 1}`;
      const links = batch.existing
        .filter((ref) => ref.memory_type === item.memory_type)
        .slice(0, 1)
        .map((ref) => ref.id);
      plan.create.push({
        key,
        category: item.memory_type === 'emotional' ? 'important' : 'daily',
        summary: item.summary,
        body: item.body,
        tags: item.tags,
        priority: 3,
        cues: [],
        memory_type: item.memory_type === 'emotional' ? 'emotional' : 'episodic',
        declarative: 'explicit',
        relevance: item.memory_type === 'emotional' ? ['emotional'] : [],
        expires: '',
        links,
        sources: [item.id],
      });
      if (n % 2 === 0) plan.bonds.push({ direction: 'user-to-role', text: `謝謝你記得 記號-${n}。`, source: item.id });
    }
  }
  for (const [target, merge] of merges) {
    plan.merge.push({
      target,
      summary: merge.summary,
      body: merge.body,
      tags: merge.tags,
      cues: [],
      priority: 3,
      links: [],
      sources: merge.sources,
    });
  }
  if (plan.create.length >= 2) plan.link.push({ from: plan.create[0]!.key, to: plan.create[1]!.key });
  return plan;
}

export interface ScriptedPlanner extends Planner {
  /** Batch sizes of every call, in order. */
  readonly calls: number[];
}

/** `failures(call, batch)` returns a failure kind to throw for that call, or undefined to answer. */
export function scriptedPlanner(
  failures: (call: number, batch: CollectedBatch) => PlannerFailureKind | 'garbage' | undefined = () => undefined,
): ScriptedPlanner {
  const calls: number[] = [];
  return {
    name: 'scripted',
    calls,
    plan(batch, planId) {
      calls.push(batch.items.length);
      const failure = failures(calls.length, batch);
      if (failure === 'garbage') {
        // A "plan" that forgets an item: apply must refuse it (SLEEP-5: a bad plan keeps the inbox).
        const plan = scriptedPlan(batch, planId);
        return Promise.resolve({ ...plan, discard: [], create: [], merge: [] } as SleepPlan);
      }
      if (failure) {
        const output = failure === 'execution' ? 'Execution error' : '{"v":1,"id":"' + planId + '","create":[{"key":"n1","summ';
        return Promise.reject(
          new PlannerError(failure, `scripted ${failure}`, {
            materialChars: batch.materialChars,
            outputChars: output.length,
            batchSize: batch.items.length,
            outputHead: output.slice(0, 200),
          }),
        );
      }
      return Promise.resolve(scriptedPlan(batch, planId));
    },
  };
}

/** Every file under `dir` whose name ends with .gz, gunzipped, by relative path. */
export function readArchives(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.gz')) continue;
    out.set(name, zlib.gunzipSync(fs.readFileSync(path.join(dir, name))).toString('utf8'));
  }
  return out;
}

/** Every consolidated memory file's text (the six categories), by relative path. */
export function readConsolidated(roleDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const category of ['important', 'interest', 'news', 'skill', 'daily', 'other']) {
    const dir = path.join(roleDir, category);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir))
      if (name.endsWith('.md') && !name.startsWith('.')) out.set(`${category}/${name}`, fs.readFileSync(path.join(dir, name), 'utf8'));
  }
  return out;
}

export function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
