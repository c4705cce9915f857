import { parseJson, startMockServer, writeJson, writeSse, type MockServer } from './mock-server.js';

/**
 * The Anthropic Messages API as Claude Code uses it (ANTHROPIC_BASE_URL): POST /v1/messages,
 * streamed (SSE) or plain JSON, and /v1/messages/count_tokens. Every answer is `reply` as one
 * text block with stop_reason end_turn, so the client ends its turn without calling a tool.
 */
export function startMockAnthropic(reply: () => string): Promise<MockServer> {
  let n = 0;
  return startMockServer((request, res) => {
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === '/v1/messages/count_tokens')
      return writeJson(res, 200, { input_tokens: Math.ceil(request.body.length / 4) });
    if (request.method !== 'POST' || path !== '/v1/messages')
      return writeJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${request.method} ${path}` } });
    const body = parseJson(request.body);
    const model = typeof body.model === 'string' ? body.model : 'claude-mock';
    const text = reply();
    const id = `msg_mock_${++n}`;
    const usage = { input_tokens: Math.ceil(request.body.length / 4), output_tokens: text.length };
    if (body.stream !== true) {
      return writeJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      });
    }
    writeSse(res, [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage, output_tokens: 1 },
          },
        },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: text.length } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  });
}
