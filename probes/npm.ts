// How witness runs npm: the environment it gets (the operator's npm settings and proxy, never a
// credential) and the one line of its error output that says what went wrong.
import { buildChildEnv } from "../core/child-env.js";
import { UsageError } from "../core/errors.js";
import { runProcess } from "../core/exec.js";

// npm needs the operator's HOME (its own cache) and proxy settings; never any credential.
// npm needs the machine's CA settings too: behind a TLS-inspecting proxy, without them every
// registry fetch fails certificate checks and npm retries for about a minute.
const NPM_ALLOW = [
  "HOME",
  "XDG_CACHE_HOME",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];
/** The environment npm runs with: the allow-list above plus npm's own and proxy variables. */
export function npmEnv(
  parent: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const extra = Object.keys(parent).filter(
    (n) => n.startsWith("npm_config_") || n.toLowerCase().endsWith("_proxy"),
  );
  return buildChildEnv({ parent, allow: [...NPM_ALLOW, ...extra] });
}

/**
 * The line of npm's error output that says what went wrong (`notarget No matching version …`,
 * `network request to … failed …`), without the code/errno/log-file lines around it.
 */
export function npmRelevantLine(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const said = lines
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, ""))
    .filter(
      (l) =>
        !/^(code|errno|syscall|signal)\b|^A complete log of this run|^Log files were not written|^\/.*\.log$/.test(
          l,
        ),
    );
  return said.find((l) => l !== "") ?? lines.at(-1) ?? "npm failed without a message";
}

/** Every version npm has published of `pkg`, as the registry lists them (one query); exit 2 on failure. */
export async function publishedVersionsOf(
  pkg: string,
  parent: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const npm = await runProcess({
    file: "npm",
    args: ["view", pkg, "versions", "--json", "--loglevel=error"],
    env: npmEnv(parent),
    cwd: process.cwd(),
    timeoutMs: 2 * 60_000,
  });
  if (npm.spawnError !== null)
    throw new UsageError(`cannot list ${pkg}'s versions: npm could not start (${npm.spawnError})`);
  if (npm.exitCode !== 0) {
    const said = npmRelevantLine(npm.stderr.trim() || npm.stdout);
    throw new UsageError(`cannot list ${pkg}'s versions from npm: ${said}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(npm.stdout);
  } catch {
    throw new UsageError(`npm view ${pkg} versions printed no JSON list`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter((v): v is string => typeof v === "string");
}
