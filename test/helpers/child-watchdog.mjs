// Loaded with `node --import` into the long-lived children the tests start (daemons, servers,
// writers: test/ipc/daemon-kit.ts runNode). When the test process that started the child is gone
// (its parent changed: killed runner, crashed worker), the child stops itself — SIGTERM, so a
// daemon removes its socket, then SIGKILL if that did not end it — instead of living on as an
// orphan. Plain JavaScript so that it needs no bundling; every timer is unref'd, so it never
// keeps a child alive that would otherwise exit.
const parent = process.ppid;
const check = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(check);
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 3_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
check.unref();
