import { describe, expect, it } from 'vitest';
import { parseToml, TomlSyntaxError } from './toml-read.js';

describe('parseToml (enough TOML to read Codex config.toml, issue 13)', () => {
  it('reads the hooks.state tables as Codex 0.171 /hooks writes them, next to the rest of a real config', () => {
    // The file after trusting one hook and toggling another in Codex's /hooks (observed), plus
    // what users commonly have around it: a provider, profiles, a multi-line instruction, MCP servers.
    const text = [
      'model = "gpt-5"  # the default',
      "developer_instructions = '''",
      'Be brief.',
      "Quote 'like this'.'''",
      'notify = ["notify-send", "Codex"]',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      'base_url = "http://127.0.0.1:9/v1"',
      'http_headers = { "X-Team" = "a", retries = 3 }',
      '',
      '[mcp_servers.kioku]',
      'command = "kioku"',
      'args = [',
      '  "mcp", # the server',
      '  "--assistant", "codex",',
      ']',
      '',
      '[[profiles.list]]',
      'name = "a"',
      '[[profiles.list]]',
      'name = "b"',
      '',
      '[tui]',
      'screen_reader_detection_done = true',
      '',
      '[hooks.state]',
      '',
      '[hooks.state."/home/me/.codex/hooks.json:session_start:0:0"]',
      'trusted_hash = "sha256:6e20f9cd77af926a328c682b73971dfd53f34035654240edd756c23700a11768"',
      'enabled = true',
      '',
      "[hooks.state.'C:\\Users\\me\\.codex\\hooks.json:stop:1:0']",
      'enabled = false',
      'written = 1979-05-27 07:32:00Z',
    ].join('\r\n');
    const data = parseToml(text) as Record<string, any>;
    expect(data.model).toBe('gpt-5');
    expect(data.developer_instructions).toBe("Be brief.\r\nQuote 'like this'.");
    expect(data.notify).toEqual(['notify-send', 'Codex']);
    expect(data.model_providers.mock).toEqual({ name: 'mock', base_url: 'http://127.0.0.1:9/v1', http_headers: { 'X-Team': 'a', retries: '3' } });
    expect(data.mcp_servers.kioku.args).toEqual(['mcp', '--assistant', 'codex']);
    expect(data.profiles.list).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(data.tui.screen_reader_detection_done).toBe(true);
    expect(data.hooks.state['/home/me/.codex/hooks.json:session_start:0:0']).toEqual({
      trusted_hash: 'sha256:6e20f9cd77af926a328c682b73971dfd53f34035654240edd756c23700a11768',
      enabled: true,
    });
    expect(data.hooks.state['C:\\Users\\me\\.codex\\hooks.json:stop:1:0']).toEqual({ enabled: false, written: '1979-05-27 07:32:00Z' });
  });

  it('reads escapes, dotted keys and multi-line basic strings', () => {
    const data = parseToml('a."b c".d = "tab\\there \\u00e9 \\"q\\""\ns = """\nline \\\n    joined"""\nq = """two ""quotes"""""\n') as Record<string, any>;
    expect(data.a['b c'].d).toBe('tab\there é "q"');
    expect(data.s).toBe('line joined');
    expect(data.q).toBe('two ""quotes""');
  });

  it.each([
    ['model = "gpt-5', 1],
    ['[hooks.state."k"\ntrusted_hash = "x"', 1],
    ['a = 1\nb = = 2', 2],
    ['a = 1\n\n[t]\nx = [1, 2\ny = 3', 5],
    ['a = 1 2 3', 1],
    ['a = 1\na = 2', 2],
    ["s = '''never closed", 1],
  ])('refuses %j with the line it stopped at', (text, line) => {
    let error: unknown;
    try {
      parseToml(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TomlSyntaxError);
    expect((error as TomlSyntaxError).line).toBe(line);
    expect((error as Error).message).toMatch(new RegExp(`^line ${line}: `));
  });
});
