import { parseJson, startMockServer, writeJson, writeSse, type MockServer } from './mock-server.js';

/**
 * A mock of the Gemini API as Gemini CLI uses it (GOOGLE_GEMINI_BASE_URL): generateContent,
 * streamGenerateContent and countTokens.
 * Design notes: docs/design-notes.md, "test/clients/mock-gemini.ts".
 */
export function startMockGemini(reply: () => string): Promise<MockServer> {
  return startMockServer((request, res) => {
    const path = request.url.split('?')[0] ?? '';
    const method = path.slice(path.lastIndexOf(':') + 1);
    if (request.method !== 'POST' || !path.includes('/models/'))
      return writeJson(res, 404, { error: { code: 404, message: `mock: no ${request.method} ${path}`, status: 'NOT_FOUND' } });
    if (method === 'countTokens') return writeJson(res, 200, { totalTokens: Math.ceil(request.body.length / 4) });
    const config = (parseJson(request.body).generationConfig ?? {}) as Record<string, unknown>;
    const schema = config.responseJsonSchema ?? config.responseSchema;
    const text = config.responseMimeType === 'application/json' ? JSON.stringify(valueOf(schema)) : reply();
    const answer = {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: Math.ceil(request.body.length / 4),
        candidatesTokenCount: text.length,
        totalTokenCount: Math.ceil(request.body.length / 4) + text.length,
      },
      modelVersion: 'gemini-mock',
    };
    if (method === 'streamGenerateContent') return writeSse(res, [{ data: answer }]);
    if (method === 'generateContent') return writeJson(res, 200, answer);
    return writeJson(res, 404, { error: { code: 404, message: `mock: no method ${method}`, status: 'NOT_FOUND' } });
  });
}

/** The plainest value that fits a JSON schema (Gemini's upper-case types or standard ones). */
function valueOf(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string; properties?: Record<string, unknown>; items?: unknown; enum?: unknown[] };
  if (s.enum && s.enum.length > 0) return s.enum[0];
  switch (String(s.type ?? 'object').toLowerCase()) {
    case 'string':
      return 'mock';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, valueOf(value)]));
  }
}
