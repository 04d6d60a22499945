// The loopback forwarder run inside a probe's network namespace (`node -e`), as source text.
// It listens on 127.0.0.1:<port> and pipes each connection to the fake server's unix socket, prints
// "ready" once listening, and exits when its parent (the CLI the entry script exec'd) is gone.
// Only node:net: it starts no process.

/** CommonJS source for `node -e <source> <port> <socket-path>`. */
export const FORWARDER_SOURCE = `
const { connect, createServer } = require("node:net");
const [port, socketPath] = process.argv.slice(1);
const parent = process.ppid;
const server = createServer((client) => {
  const upstream = connect(socketPath);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.pipe(upstream);
  upstream.pipe(client);
  for (const s of [client, upstream]) { s.on("error", close); s.on("close", close); }
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\\n"));
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 50);
`;
