// The loopback forwarder that holds a probe's network namespace open, as source text for `node -e`.
// It listens on 127.0.0.1:<port> inside the namespace and pipes each connection to the fake server's
// unix socket (path sockets cross network namespaces). It reports "ready <pid>" on the control socket
// and exits as soon as that control connection closes, so it never outlives its witness process.
// Only node:net: it starts no process.

/** CommonJS source for `node -e <source> <port> <server-socket> <control-socket>`. */
export const FORWARDER_SOURCE = `
const { connect, createServer } = require("node:net");
const [port, socketPath, controlPath] = process.argv.slice(1);
const server = createServer((client) => {
  const upstream = connect(socketPath);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.pipe(upstream);
  upstream.pipe(client);
  for (const s of [client, upstream]) { s.on("error", close); s.on("close", close); }
});
server.listen(Number(port), "127.0.0.1", () => {
  const control = connect(controlPath, () => control.write("ready " + process.pid + "\\n"));
  control.on("error", () => process.exit(0));
  control.on("close", () => process.exit(0));
  control.resume();
});
`;
