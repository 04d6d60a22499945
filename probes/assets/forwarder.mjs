// Loopback forwarder inside a probe's network namespace: 127.0.0.1:<port> -> the fake server's unix socket.
// Usage: node forwarder.mjs <port> <socket-path>. Prints "ready" once listening; exits when its parent does.
import { connect, createServer } from "node:net";

const [port, socketPath] = process.argv.slice(2);
const parent = process.ppid;

const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close);
  upstream.on("error", close);
  client.on("close", close);
  upstream.on("close", close);
});

server.listen(Number(port), "127.0.0.1", () => {
  process.stdout.write("ready\n");
});

// The entry script execs the CLI in its own process, which becomes this one's parent: follow it out.
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 50);
