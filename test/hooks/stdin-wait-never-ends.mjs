// Loaded with `node --import` into a hook client by test/hooks/hook-stdin.test.ts: the timer of
// exactly KIOKU_TEST_ENDLESS_TIMER_MS (the hook's STDIN_TIMEOUT_MS) never fires, and never keeps
// the process alive. With it, a hook that answers can only have stopped reading stdin because the
// payload was whole — not because its wait ran out first on a slow machine.
const endless = Number(process.env.KIOKU_TEST_ENDLESS_TIMER_MS);
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = function setTimeout(callback, ms, ...args) {
  if (ms === endless) return realSetTimeout(() => undefined, 2 ** 31 - 1).unref();
  return realSetTimeout(callback, ms, ...args);
};
