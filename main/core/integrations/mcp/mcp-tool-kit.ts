import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { KiokuError, describeError, isKiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';
import { roleFilesExist } from '../../store/roles/role-repository.js';
import { resolveMcpRole, type McpAssistant, type McpRole } from './mcp-role.js';

/** What every tool handler gets: the config, a logger (the log file, never stdout) and role resolution. */
export interface McpToolContext {
  config: KiokuConfig;
  logger: Logger;
  assistant: McpAssistant | undefined;
  /** The client session's project folder (CLAUDE_PROJECT_DIR, else the server's cwd). */
  projectDir: string;
  role(explicit?: string): McpRole;
  /** Like role(), for tools that write: the role must exist, so a typo never starts a new memory folder. */
  existingRole(explicit?: string): McpRole;
}

export interface McpServerSettings {
  config: KiokuConfig;
  logger: Logger;
  assistant: McpAssistant | undefined;
  cwd: string;
}

export function createToolContext(settings: McpServerSettings): McpToolContext {
  const { config } = settings;
  const projectDir = path.resolve(config.env.CLAUDE_PROJECT_DIR?.trim() || settings.cwd);
  const roleContext = { config, assistant: settings.assistant, cwd: projectDir };
  const role = (explicit?: string) => resolveMcpRole(roleContext, explicit);
  return {
    config,
    logger: settings.logger,
    assistant: settings.assistant,
    projectDir,
    role,
    existingRole(explicit) {
      const found = role(explicit);
      if (roleFilesExist(config.paths.roleHome, found.id) || roleMemoryDirExists(config, found.id)) return found;
      throw new KiokuError('NOT_FOUND', `role ${found.id} does not exist: no definition in ${config.paths.roleHome} and no memory folder`, {
        hint: 'call persona_list to see the roles, then pass `role`',
      });
    },
  };
}

function roleMemoryDirExists(config: KiokuConfig, id: string): boolean {
  try {
    return fs.statSync(roleMemoryDir(config.paths.memoryHome, id)).isDirectory();
  } catch {
    return false;
  }
}

/** A successful result: text for the model, plus structured data for clients that use it. */
export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

/**
 * A failed call as a tool result (isError), never a crash of the server: the KiokuError's message
 * and what to do, which the model can act on ("read first, then write a shorter text").
 */
export function errorResult(error: unknown, logger: Logger, tool: string): CallToolResult {
  if (isKiokuError(error)) {
    logger.info('mcp', `${tool}: ${error.code}: ${error.message}`);
    const text = error.hint ? `${error.message}\n→ ${error.hint}` : error.message;
    return {
      content: [{ type: 'text', text }],
      isError: true,
      structuredContent: { error: { code: error.code, message: error.message, hint: error.hint ?? null } },
    };
  }
  const stack = error instanceof Error && error.stack ? ` ${error.stack}` : '';
  logger.error('mcp', `${tool} failed: ${describeError(error)}${stack}`);
  const fsCode = (error as NodeJS.ErrnoException | undefined)?.code;
  const text = fsCode
    ? `${describeError(error)}\n→ check that path and its permissions; nothing was half-written (Kioku writes atomically)`
    : `unexpected error in ${tool}: ${describeError(error)}\n→ this is a bug in Kioku; the details are in the Kioku log file`;
  return {
    content: [{ type: 'text', text }],
    isError: true,
    structuredContent: { error: { code: fsCode ?? 'UNEXPECTED', message: describeError(error), hint: null } },
  };
}

/** Wrap a handler so that every throw becomes an isError result. */
export function guarded<A>(
  tool: string,
  logger: Logger,
  handler: (args: A) => Promise<CallToolResult> | CallToolResult,
): (args: A) => Promise<CallToolResult> {
  return async (args: A) => {
    try {
      return await handler(args);
    } catch (error) {
      return errorResult(error, logger, tool);
    }
  };
}

/** Warnings from the privacy gate, as lines to append to a result. */
export function warningLines(warnings: readonly string[]): string {
  return warnings.length ? `\n${warnings.map((warning) => `⚠ ${warning}`).join('\n')}` : '';
}
