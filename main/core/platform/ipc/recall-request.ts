import { PROTOCOL_VERSION } from '../../../../common/hook-wire.js';
import { traceSpan } from '../config/trace.js';
import type { RecallRequest } from '../../../../common/hook-protocol.js';
import type { RecallResult } from '../../store/index/recall.js';
import { newEventId } from './hook-request.js';
import { sendLine, type SocketResult } from './socket-request.js';
import { readToken } from './token-file.js';
import { readRecallReply } from './recall-wire.js';

/**
 * `kioku memory recall` asking the daemon (issue 17): the same socket, token and socket trust
 * checks as the hooks (socket-request.ts), node:net only. Any failure — no daemon, an old one
 * that does not know recalls, a timeout — is a reason, and the CLI recalls from the index itself.
 */
export type RecallQuery = Omit<RecallRequest, 'v' | 'id' | 'token' | 'kind'>;

export async function requestRecall(
  endpoint: { socketPath: string; tokenFile: string },
  query: RecallQuery,
  timeoutMs: number,
): Promise<SocketResult<RecallResult>> {
  const token = readToken(endpoint.tokenFile);
  if (token === undefined)
    return { ok: false, reason: 'no-socket', detail: `no token at ${endpoint.tokenFile}: the app has not run on this memory home` };
  const request: RecallRequest = { v: PROTOCOL_VERSION, id: newEventId(), token, kind: 'recall', ...query };
  const result = await sendLine(endpoint.socketPath, request.id, `${JSON.stringify(request)}\n`, timeoutMs, readRecallReply);
  if (!result.ok) return result;
  const reply = result.reply;
  if (!reply.ok || !('recall' in reply))
    return {
      ok: false,
      reason: 'bad-reply',
      detail: `${endpoint.socketPath}: ${'error' in reply && reply.error ? `${reply.error.code}: ${reply.error.message}` : 'no recall in the reply'}`,
    };
  if (typeof reply.handledMs === 'number') traceSpan('daemon', reply.handledMs);
  return { ok: true, reply: reply.recall };
}
