import fs from 'node:fs';
import path from 'node:path';
import { clientScenarios } from './client-scenarios.js';
import { startMockOpenAI } from './mock-openai.js';

// Codex with the hooks `kioku hooks install` wrote into $CODEX_HOME/hooks.json, its model a
// `model_provider` whose base_url is the mock Responses API. Hooks a user has not trusted yet
// are skipped silently by `codex exec`; the user trusts them once in /hooks, a test with
// --dangerously-bypass-hook-trust (ASSISTANTS.md).
const FLAGS = ['--skip-git-repo-check', '--dangerously-bypass-hook-trust'];

clientScenarios(
  {
    client: 'codex',
    assistant: 'codex',
    startMock: startMockOpenAI,
    configure: (home, mock) => {
      const codexHome = path.join(home.root, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      fs.writeFileSync(
        path.join(codexHome, 'config.toml'),
        [
          'model = "gpt-mock"',
          'model_provider = "mock"',
          '',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${mock.baseUrl}/v1"`,
          'wire_api = "responses"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
          '',
        ].join('\n'),
      );
      return { CODEX_HOME: codexHome };
    },
    newSession: (prompt) => ['exec', ...FLAGS, prompt],
    resume: (prompt) => ['exec', 'resume', '--last', ...FLAGS, prompt],
  },
  'Codex',
);
