// File-access tracing of a spawn: strace, outside the cell's namespaces (so it sees a static
// native binary as well as Node, and the trace file is out of the traced code's reach), stopping
// only at the open calls (seccomp-bpf filter), successful ones only. What a spawn opened is read
// back from the trace as absolute paths.
import { existsSync } from "node:fs";

/** Where strace is looked for (witness runs it by absolute path, never through the spawn's PATH). */
const STRACE = ["/usr/bin/strace", "/bin/strace"];

/** The strace binary, or null when the machine has none. */
export function straceBinary(exists: (p: string) => boolean = existsSync): string | null {
  return STRACE.find((p) => exists(p)) ?? null;
}

/** `file args` run under strace, writing the open calls that succeeded to `out`. */
export function traceWrap(
  strace: string,
  out: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return {
    file: strace,
    args: [
      "-f",
      // Each returned descriptor printed with its path: an open relative to a directory or to
      // the process's cwd is read back as the absolute file it opened.
      "-y",
      "--seccomp-bpf",
      "-qq",
      "-z",
      "-e",
      "trace=open,openat,openat2",
      "-e",
      "signal=none",
      "-s",
      "4096",
      "-o",
      out,
      "--",
      file,
      ...args,
    ],
  };
}

// `1234 openat(AT_FDCWD</cwd>, "rel/path", O_RDONLY|O_CLOEXEC) = 3</abs/path>` (with -y), or
// `open("/path", …) = 3`: the path asked for, the flags, and the path of the descriptor returned.
const OPEN =
  /^\d+\s+(?:open|openat|openat2)\((?:[^,"]+,\s*)?"((?:[^"\\]|\\.)*)",\s*([^)]*)\)\s*=\s*\d+(?:<(.*)>)?\s*$/;

// strace escapes a path's bytes as C does; octal and the usual letters are enough for paths.
function unescape(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const next = text[i + 1] ?? "";
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += octal[0].length;
      continue;
    }
    const named: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, "\\": 92 };
    bytes.push(named[next] ?? next.charCodeAt(0));
    i++;
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * The absolute paths of the files a trace shows opened for reading (read-only or read-write, not
 * directories), each once, in the order first opened; relative paths are counted, not guessed.
 */
export function openedForReading(trace: string): { paths: string[]; relative: number } {
  const seen = new Set<string>();
  let relative = 0;
  for (const line of trace.split("\n")) {
    const m = OPEN.exec(line);
    if (m === null) continue;
    const flags = m[2] ?? "";
    if (flags.includes("O_DIRECTORY") || flags.includes("O_WRONLY")) continue;
    const path = unescape(m[3] ?? m[1] ?? "");
    if (!path.startsWith("/")) {
      relative++;
      continue;
    }
    seen.add(path);
  }
  return { paths: [...seen], relative };
}
