// The processes a command started, read from `strace -f --pidns-translation -e
// trace=execve,clone,clone3,fork,vfork`:
// who forked whom and what each ran, so a bench can count witness's helpers apart from the CLI's own.

/** One process of the trace: its pid, parent and the programs it ran (execve, in order). */
export interface TracedProcess {
  pid: number;
  parent: number | null;
  programs: string[];
}

const SPAWNS = /^(clone3?|v?fork)\(/;

/** Reads an strace -f log (one `PID syscall…` per line) into its processes; threads fold into theirs. */
export function parseProcessTree(log: string): TracedProcess[] {
  const pending = new Map<number, string>();
  const leader = new Map<number, number>(); // thread id → its process
  const byPid = new Map<number, TracedProcess>();
  const processOf = (pid: number) => leader.get(pid) ?? pid;
  const entry = (pid: number, parent: number | null) => {
    const found = byPid.get(pid);
    if (found !== undefined) return found;
    const made: TracedProcess = { pid, parent, programs: [] };
    byPid.set(pid, made);
    return made;
  };
  for (const line of log.split("\n")) {
    const m = /^(\d+) +(.*)$/.exec(line);
    if (m === null) continue;
    const pid = Number(m[1]);
    let text = m[2] ?? "";
    if (text.endsWith("<unfinished ...>")) {
      pending.set(pid, text.slice(0, -"<unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(text);
    if (resumed !== null) {
      text = (pending.get(pid) ?? "") + (resumed[1] ?? "");
      pending.delete(pid);
    }
    const me = entry(processOf(pid), null);
    // Inside a PID namespace a fork returns the namespace's pid; --pidns-translation adds strace's.
    const result = /= (-?\d+)(?: \/\* (\d+) in strace's PID NS \*\/)?(?: [^=]*)?$/.exec(text);
    const value = result === null ? NaN : Number(result[2] ?? result[1]);
    if (SPAWNS.test(text) && value > 0) {
      if (text.includes("CLONE_THREAD")) {
        leader.set(value, me.pid);
        // The thread may have been seen first, as if it were a process: fold it into its own.
        const early = byPid.get(value);
        byPid.delete(value);
        me.programs.push(...(early?.programs ?? []));
        for (const p of byPid.values()) if (p.parent === value) p.parent = me.pid;
      } else entry(value, me.pid).parent = me.pid;
    } else if (text.startsWith("execve(") && value === 0) {
      const path = /^execve\("([^"]*)"/.exec(text)?.[1];
      if (path !== undefined) me.programs.push(path);
    }
  }
  return [...byPid.values()];
}

/** The pids of `root` and every process it started, transitively. */
export function subtree(processes: readonly TracedProcess[], root: number): Set<number> {
  const inside = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of processes) {
      if (p.parent !== null && inside.has(p.parent) && !inside.has(p.pid)) {
        inside.add(p.pid);
        grew = true;
      }
    }
  }
  return inside;
}

/** A process by what it ran: `unshare → sh → node`, or `(fork of sh)` when it ran nothing. */
export function describeProcess(p: TracedProcess, all: readonly TracedProcess[]): string {
  const base = (path: string) => path.split("/").at(-1) ?? path;
  if (p.programs.length > 0) return p.programs.map(base).join(" → ");
  const parent = all.find((q) => q.pid === p.parent);
  const from = parent?.programs.at(-1);
  return `(fork of ${from === undefined ? "witness" : base(from)})`;
}

/**
 * witness's helper processes in a trace of one `witness …` command: every process but the first
 * (witness itself) and the CLI's, i.e. those under the first process whose program `isCli` accepts.
 */
export function helperProcesses(
  processes: readonly TracedProcess[],
  isCli: (program: string) => boolean,
): TracedProcess[] {
  const root = processes[0]?.pid;
  const cli = processes.find((p) => p.programs.some(isCli));
  const cliTree = cli === undefined ? new Set<number>() : subtree(processes, cli.pid);
  return processes.filter((p) => p.pid !== root && !cliTree.has(p.pid));
}
