import fs from 'node:fs';
import path from 'node:path';
import { clientScenarios } from './client-scenarios.js';
import { startMockAnthropic } from './mock-anthropic.js';

// Claude Code with the hooks `kioku hooks install` wrote into ~/.claude/settings.json (the
// README's way), talking to a mock Anthropic API (ASSISTANTS.md, "Seen with the real clients").
clientScenarios(
  {
    client: 'claude',
    assistant: 'claude',
    startMock: startMockAnthropic,
    configure: (home, mock) => {
      fs.mkdirSync(path.join(home.root, '.claude'), { recursive: true });
      return {
        ANTHROPIC_BASE_URL: mock.baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-mock-not-a-key',
        // Offline: no telemetry, update checks or feature flags to hosts that do not answer here.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
    },
    newSession: (prompt) => ['-p', prompt],
    resume: (prompt) => ['--continue', '-p', prompt],
  },
  'Claude Code',
);
