import fs from 'node:fs';
import path from 'node:path';
import { clientScenarios } from './client-scenarios.js';
import { startMockGemini } from './mock-gemini.js';

// Gemini CLI with the hooks `kioku hooks install` wrote into ~/.gemini/settings.json, its API
// at GOOGLE_GEMINI_BASE_URL. Headless it needs an auth type chosen in the settings and the
// workspace trusted (ASSISTANTS.md).
clientScenarios(
  {
    client: 'gemini',
    assistant: 'gemini',
    startMock: startMockGemini,
    configure: (home, mock) => {
      const file = path.join(home.root, '.gemini', 'settings.json');
      const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, `${JSON.stringify({ ...settings, security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)}\n`);
      return { GOOGLE_GEMINI_BASE_URL: mock.baseUrl, GEMINI_API_KEY: 'mock-not-a-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    },
    newSession: (prompt) => ['-p', prompt],
    resume: (prompt) => ['--resume', 'latest', '-p', prompt],
  },
  'Gemini CLI',
);
