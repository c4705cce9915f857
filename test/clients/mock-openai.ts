import { startMockServer, writeJson, writeSse, type MockServer } from './mock-server.js';

/**
 * The OpenAI Responses API as Codex uses it through a `model_provider` whose `base_url` is this
 * server (`<base>/v1`, wire_api "responses"): POST /v1/responses, always streamed (SSE). Each
 * answer is one assistant message with `reply`, then response.completed, so the turn ends
 * without a tool call. Codex may also ask for /v1/models; an empty list keeps it on the
 * configured model.
 */
export function startMockOpenAI(reply: () => string): Promise<MockServer> {
  let n = 0;
  return startMockServer((request, res) => {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') return writeJson(res, 200, { object: 'list', data: [] });
    if (request.method !== 'POST' || path !== '/v1/responses')
      return writeJson(res, 404, { error: { message: `mock: no ${request.method} ${path}` } });
    const text = reply();
    const id = `resp_mock_${++n}`;
    const item = {
      type: 'message',
      role: 'assistant',
      id: `msg_mock_${n}`,
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    writeSse(res, [
      { event: 'response.created', data: { type: 'response.created', response: { id, status: 'in_progress' } } },
      {
        event: 'response.output_item.added',
        data: { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      },
      {
        event: 'response.output_text.delta',
        data: { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: text },
      },
      { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
      {
        event: 'response.completed',
        data: {
          type: 'response.completed',
          response: {
            id,
            status: 'completed',
            usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 },
          },
        },
      },
    ]);
  });
}
