import fs from 'node:fs';
import { KiokuError } from '../../../../common/errors.js';
import type { SessionPreviewView, UiParsedRequest } from '../../../../common/ui-contract.js';
import { loadConfig, type KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import { previewSessionStart } from '../hook-handlers/session-start-preview.js';
import { projectFolderOf } from './facts-handlers.js';

/**
 * The "next session" view: what SessionStart would inject now for a role and a project folder
 * (session-start-preview.ts runs the hook's own assembly). Settings are read fresh, as the hook
 * reads them, so an edited budget shows at once.
 */
export function previewNextSession(
  config: KiokuConfig,
  logger: Logger,
  request: UiParsedRequest<'context.preview'>,
  memories?: MemoryCache,
): SessionPreviewView {
  let project: string | undefined;
  if (request.project !== undefined) {
    project = projectFolderOf(config, request.project);
    if (!fs.statSync(project, { throwIfNoEntry: false })?.isDirectory()) {
      throw new KiokuError('NOT_FOUND', `project folder ${project} does not exist`, {
        path: project,
        hint: 'pick a folder from the list, or type an existing folder',
      });
    }
  }
  const preview = previewSessionStart(loadConfig(config.env), logger, { role: request.role, ...(project ? { project } : {}) }, memories);
  return {
    role: preview.role,
    cwd: preview.cwd,
    state: preview.state,
    ...(preview.offReason ? { offReason: preview.offReason } : {}),
    text: preview.text,
    parts: preview.parts,
    partLimit: preview.report?.partLimit ?? null,
    maxParts: preview.report?.maxParts ?? 1,
    blocks: preview.report?.blocks ?? [],
    omitted: preview.omitted ?? {},
  };
}
