import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantName } from '../../common/hook-events.js';
import { describeClient, pinned, type ClientName } from './installed-clients.js';
import { ACTIVE, CALLEE, INJECTED_MARKERS, makeKiokuUserHome, type KiokuUserHome } from './kioku-user-home.js';
import type { MockServer } from './mock-server.js';
import { describeRun, runClient } from './run-client.js';

/**
 * What every real client must do with Kioku installed (issue 13, item 6), written once and run
 * against Claude Code, Codex and Gemini CLI: each file only says how its client is configured,
 * started and resumed. The tests of one file share one user home and run in order, as one
 * user's day: a turn, a call by name, a resume, then turns with the daemon down.
 */
export interface ClientUnderTest {
  client: ClientName;
  assistant: AssistantName;
  startMock(reply: () => string): Promise<MockServer>;
  /** The client's own setup in the user home (its model API pointed at the mock) and its env. */
  configure(home: KiokuUserHome, mock: MockServer): NodeJS.ProcessEnv;
  /** The arguments of a new headless session with this prompt. */
  newSession(prompt: string): string[];
  /** The arguments that continue the most recent session with this prompt. */
  resume(prompt: string): string[];
}

const REPLY = '好的，我記住了。';

/** A realistic fake Anthropic key, new each run: the suite can never pass on a remembered value. */
function fakeSecret(): string {
  return `sk-ant-api03-${randomBytes(70).toString('base64url').slice(0, 93)}AA`;
}

/**
 * Assertions that say what was there instead of a diff of pages of injected text: a failure
 * here has to tell the merger at a glance which bug it met.
 */
// By code points: a CJK preview cut mid-surrogate would end in a replacement character.
const preview = (items: string[]) =>
  items.length ? items.map((item) => `  · ${Array.from(item).slice(0, 160).join('')}`).join('\n') : '  (nothing)';
function expectWords(words: string[], needle: string, where: string): void {
  expect(
    words.some((w) => w.includes(needle)),
    `${where} should hold «${needle}» as the user's words; it holds:\n${preview(words)}`,
  ).toBe(true);
}
function expectNoWords(words: string[], needle: string, where: string): void {
  expect(
    words.filter((w) => w.includes(needle)),
    `${where} should not hold «${needle}»`,
  ).toEqual([]);
}
function expectSent(sent: string, needle: string, what: string): void {
  expect(sent.includes(needle), `the model request should contain ${what} «${needle}» (${sent.length} characters sent)`).toBe(true);
}

export function clientScenarios(spec: ClientUnderTest, title: string): void {
  describeClient(spec.client, `${title} (${pinned(spec.client)}) with Kioku's hooks`, (bin) => {
    let home: KiokuUserHome;
    let mock: MockServer;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      mock = await spec.startMock(() => REPLY);
      home = makeKiokuUserHome(spec.assistant);
      env = { ...home.env, ...spec.configure(home, mock) };
      await home.startDaemon();
    });
    afterAll(async () => {
      await home?.cleanup();
      await mock?.close();
    });

    /** One run of the client; `sent` is everything the model was sent, `main` the turn's own request. */
    async function turn(args: string[]) {
      const mark = mock.mark();
      const run = await runClient(bin, args, env, home.project);
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toContain(REPLY);
      return { sent: mock.sentSince(mark), main: mock.mainSince(mark) };
    }
    const injectedIn = (text: string) => INJECTED_MARKERS.filter((marker) => text.includes(marker));
    const inboxesWithInjectedText = () =>
      home
        .inboxTexts()
        .map(({ file, text }) => ({ file, injected: injectedIn(text) }))
        .filter((found) => found.injected.length > 0);

    let firstTurn: Promise<{ sent: string; main: string }>;
    it('(a) puts the active role’s persona and memories in the model request', async () => {
      firstTurn = turn(spec.newSession('記住：部署前一定要先跑 smoke test'));
      const { sent } = await firstTurn;
      expectSent(sent, ACTIVE.nature, 'the active role’s nature');
      expectSent(sent, ACTIVE.vibe, 'the active role’s vibe');
      expectSent(sent, ACTIVE.memoryCue, 'the active role’s memory');
    });

    it('(c) files that turn in the active role’s inbox as the user’s own words, with nothing injected', async () => {
      await firstTurn;
      await home.waitDrained();
      expectWords(home.inboxUserWords(ACTIVE.id), '部署前一定要先跑 smoke test', `${ACTIVE.id}'s inbox`);
      expect(inboxesWithInjectedText()).toEqual([]);
    });

    let calledTurn: Promise<{ sent: string; main: string }>;
    it('(b) a prompt that calls the second role by name puts that role in the model request', async () => {
      calledTurn = turn(spec.newSession(`${CALLEE.name}，記住：staging 的憑證放在 vault 的 ops 資料夾`));
      const { sent } = await calledTurn;
      // Its vibe and its memory are only in its own load, never in the active role's list of companions.
      expectSent(sent, CALLEE.vibe, 'the called role’s vibe');
      expectSent(sent, CALLEE.memoryCue, 'the called role’s memory');
    });

    it('(c) files the called turn in the called role’s inbox, not the active role’s', async () => {
      await calledTurn;
      await home.waitDrained();
      expectWords(home.inboxUserWords(CALLEE.id), 'staging 的憑證放在 vault 的 ops 資料夾', `${CALLEE.id}'s inbox`);
      expectNoWords(home.inboxUserWords(ACTIVE.id), 'vault', `${ACTIVE.id}'s inbox`);
      expect(inboxesWithInjectedText()).toEqual([]);
    });

    it('(e) resuming the called session keeps the called role: no second load of the active role, the turn in the called role’s inbox', async () => {
      const called = await calledTurn;
      const resumed = await turn(spec.resume('再記住：憑證輪替要先通知 SRE 值班'));
      // The resumed request replays the called session (the active role's startup load once,
      // then the call); a fresh full load of the active role on resume would add another.
      const count = (text: string, needle: string) => text.split(needle).length - 1;
      expect(
        count(resumed.main, ACTIVE.vibe),
        `loads of ${ACTIVE.id} in the resumed request, vs ${count(called.main, ACTIVE.vibe)} in the called session's`,
      ).toBeLessThanOrEqual(count(called.main, ACTIVE.vibe));
      await home.waitDrained();
      expectWords(home.inboxUserWords(CALLEE.id), '憑證輪替要先通知 SRE 值班', `${CALLEE.id}'s inbox`);
      expectNoWords(home.inboxUserWords(ACTIVE.id), 'SRE 值班', `${ACTIVE.id}'s inbox`);
    });

    it('(d) a secret in a prompt is nowhere in clear under Kioku’s homes (daemon up)', async () => {
      const secret = fakeSecret();
      await turn(spec.newSession(`記住：測試環境的 API key 是 ${secret}，下個月輪替`));
      await home.waitDrained();
      // The turn was captured (so the scan below looked at a real capture) …
      expectWords(home.inboxUserWords(ACTIVE.id), '測試環境的 API key', `${ACTIVE.id}'s inbox`);
      // … and the key itself is in no file: inbox, index, logs, sessions, spool.
      expect(home.filesContaining(secret)).toEqual([]);
    });

    describe('with the daemon down', () => {
      beforeAll(async () => {
        await home.waitDrained();
        await home.stopDaemon();
      });

      it('(f) the turn waits in the spool and the next `kioku sleep` ingests it', async () => {
        const before = home.spoolFiles();
        await turn(spec.newSession('記住：發版前要先更新 CHANGELOG'));
        expect(home.spoolFiles().length).toBeGreaterThan(before.length);
        expect(home.memoryText(ACTIVE.id).includes('CHANGELOG'), 'captured though no daemon ran').toBe(false);
        const sleep = home.kioku(['sleep', '--force']);
        expect(sleep.code, sleep.stderr + sleep.stdout).toBe(0);
        expect(home.spoolFiles()).toEqual([]);
        expect(
          home.memoryText(ACTIVE.id).includes('更新 CHANGELOG'),
          `${ACTIVE.id}'s memories after kioku sleep should hold «更新 CHANGELOG»; its user's words:\n${preview(home.memoryUserWords(ACTIVE.id))}`,
        ).toBe(true);
      });

      it('(d) a secret in a prompt is nowhere in clear under Kioku’s homes: not in the spool, not after `kioku sleep`', async () => {
        const secret = fakeSecret();
        const before = home.spoolFiles();
        await turn(spec.newSession(`記住：正式環境的 token 是 ${secret}，只給 CI 用`));
        expect(home.spoolFiles().length).toBeGreaterThan(before.length);
        expect(home.filesContaining(secret)).toEqual([]);
        const sleep = home.kioku(['sleep', '--force']);
        expect(sleep.code, sleep.stderr + sleep.stdout).toBe(0);
        expect(home.filesContaining(secret)).toEqual([]);
      });
    });
  });
}
