import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a client made to the mock model API, kept whole so a test can read what the model was told. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  url: string;
  body: string;
}

export interface MockServer {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Every request so far, oldest first. */
  requests: RecordedRequest[];
  /** Every string in the JSON bodies of the requests since `mark()` (or all), joined: what the model was sent. */
  sentSince(mark?: number): string;
  /** The same for the one largest request since `mark()`: the turn itself, not a side call (a title, a router). */
  mainSince(mark?: number): string;
  /** The number of requests so far, to read only what a later run sends. */
  mark(): number;
  close(): Promise<void>;
}

export type MockHandler = (request: RecordedRequest, res: http.ServerResponse) => void;

/**
 * A model API on 127.0.0.1 for one test file: every request is recorded before it is answered,
 * so the tests assert on what the real client put in front of the model (the persona, the
 * memories, the called role), which is the only thing the user cares about.
 */
export async function startMockServer(handle: MockHandler): Promise<MockServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      try {
        handle(recorded, res);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  // A client that keeps its connection alive must not hold the test file open after close().
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    sentSince: (mark = 0) =>
      requests
        .slice(mark)
        .map((r) => textOf(r.body))
        .join('\n'),
    mainSince: (mark = 0) => textOf(requests.slice(mark).reduce((a, b) => (b.body.length > a.length ? b.body : a), '')),
    mark: () => requests.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Server-sent events: `event:` lines when named (Anthropic, OpenAI), bare `data:` otherwise (Gemini). */
export function writeSse(res: http.ServerResponse, events: ReadonlyArray<{ event?: string; data: unknown }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

export function writeJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function parseJson(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The strings of a JSON body, joined: the text the model reads, whatever escaping the client's
 * serializer chose (a `\\u` escape of every CJK character would hide it from a plain search).
 */
export function textOf(body: string): string {
  const out: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  try {
    visit(JSON.parse(body));
  } catch {
    out.push(body);
  }
  return out.join('\n');
}
