// Loaded with `node --import` into the long-lived children the tests start (daemons, servers,
// writers: test/ipc/daemon-kit.ts runNode).
// Design notes: docs/design-notes.md, "test/helpers/child-watchdog.mjs".
const parent = process.ppid;
const check = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(check);
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 3_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
check.unref();
