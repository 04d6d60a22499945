// File-access tracing of a spawn: strace, outside the cell's namespaces (so it sees a static
// native binary as well as Node, and the trace file is out of the traced code's reach), stopping
// only at the open calls (seccomp-bpf filter), successful ones only. What a spawn opened is read
// back from the trace as absolute paths.
import { existsSync } from "node:fs";
import { basename } from "node:path";

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
      // A child's number as strace sees it, not as the cell's PID namespace numbers it.
      "--decode-pids=pidns",
      "--seccomp-bpf",
      "-qq",
      "-z",
      "-e",
      // The opens, and which program each process ran: a read by git is not a read by the CLI.
      "trace=open,openat,openat2,execve,clone,clone3,fork,vfork",
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
  /^(\d+)\s+(?:open|openat|openat2)\((?:[^,"]+,\s*)?"((?:[^"\\]|\\.)*)",\s*([^)]*)\)\s*=\s*\d+(?:<(.*)>)?\s*$/;
/** `1234 execve("/usr/bin/git", [...], ...) = 0`: the program a process runs from then on. */
const EXEC = /^(\d+)\s+execve\("((?:[^"\\]|\\.)*)"/;
/** `1234 clone(...) = 1240`: a process or thread that starts as its parent's program. */
const CLONE =
  /^(\d+)\s+(?:clone3?\(|v?fork\(|<\.\.\. (?:clone3?|v?fork) resumed>).*\)\s*=\s*(\d+)(?:\s*\/\*\s*(\d+) in strace's PID NS\s*\*\/)?/;
/** An open another thread interrupted: `1234 openat(AT_FDCWD</d>, "f", O_RDONLY <unfinished ...>`. */
const OPEN_UNFINISHED =
  /^(\d+)\s+(?:open|openat|openat2)\(.*?"((?:[^"\\]|\\.)*)",\s*([^<]*)<unfinished \.\.\.>/;
/** Its end: `1234 <... openat resumed>) = 3</d/f>`. */
const OPEN_RESUMED =
  /^(\d+)\s+<\.\.\. (?:open|openat|openat2) resumed>.*\)\s*=\s*\d+(?:<(.*)>)?\s*$/;

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
 * directories), each once, in the order first opened, with the programs (base names, comma-separated,
 * in order) of the processes that opened each; opens strace could not resolve to an absolute path are counted.
 */
export function openedForReading(trace: string): {
  paths: string[];
  relative: number;
  programs: Record<string, string>;
} {
  const programOf = new Map<string, string>();
  const programs: Record<string, string> = {};
  const pending = new Map<string, { asked: string; flags: string }>();
  const pendingExec = new Map<string, string>();
  let relative = 0;
  for (const line of trace.split("\n")) {
    const exec = EXEC.exec(line);
    if (exec !== null && line.includes("<unfinished ...>")) {
      pendingExec.set(exec[1] ?? "", basename(unescape(exec[2] ?? "")));
      continue;
    }
    if (exec !== null && /\)\s*=\s*0\s*$/.test(line)) {
      programOf.set(exec[1] ?? "", basename(unescape(exec[2] ?? "")));
      continue;
    }
    const execEnd = /^(\d+)\s+<\.\.\. execve resumed>.*=\s*(-?\d+)/.exec(line);
    if (execEnd !== null) {
      const program = pendingExec.get(execEnd[1] ?? "");
      pendingExec.delete(execEnd[1] ?? "");
      if (program !== undefined && execEnd[2] === "0") programOf.set(execEnd[1] ?? "", program);
      continue;
    }
    const clone = CLONE.exec(line);
    if (clone !== null) {
      // Inside the cell's PID namespace a clone returns the namespace's number; strace adds ours.
      programOf.set(clone[3] ?? clone[2] ?? "", programOf.get(clone[1] ?? "") ?? "?");
      continue;
    }
    const unfinished = OPEN_UNFINISHED.exec(line);
    if (unfinished !== null) {
      pending.set(unfinished[1] ?? "", { asked: unfinished[2] ?? "", flags: unfinished[3] ?? "" });
      continue;
    }
    const resumed = OPEN_RESUMED.exec(line);
    const started = resumed === null ? undefined : pending.get(resumed[1] ?? "");
    if (resumed !== null) pending.delete(resumed[1] ?? "");
    const m =
      resumed !== null && started !== undefined
        ? [line, resumed[1], started.asked, started.flags, resumed[2]]
        : OPEN.exec(line);
    if (m === null) continue;
    const flags = m[3] ?? "";
    if (flags.includes("O_DIRECTORY") || flags.includes("O_WRONLY")) continue;
    const path = unescape(m[4] ?? m[2] ?? "");
    if (!path.startsWith("/")) {
      relative++;
      continue;
    }
    // Every program that opened it: git hashing a file for its status does not hide the CLI's read.
    const by = programOf.get(m[1] ?? "") ?? "?";
    const had = programs[path];
    if (had === undefined) programs[path] = by;
    else if (!had.split(", ").includes(by)) programs[path] = `${had}, ${by}`;
  }
  return { paths: Object.keys(programs), relative, programs };
}
