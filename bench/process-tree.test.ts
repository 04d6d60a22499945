import { describe, expect, it } from "vitest";

import { describeProcess, helperProcesses, parseProcessTree } from "./process-tree.js";

// A trimmed `strace -f -qq --pidns-translation` log: witness (100) starts a thread (101), a git
// batch (102: sh, forking git 103), and a launcher (104) whose PID-namespace child (105) forks the
// CLI, known inside the namespace as pid 2 (106 outside), which runs a tool (107).
const LOG = [
  '100   execve("/usr/bin/node", ["node", "main.js"], 0x0 /* 3 vars */) = 0',
  "100   clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD|CLONE_SIGHAND, exit_signal=0}, 88) = 101",
  "100   clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x1, stack_size=0x9000}, 88 <unfinished ...>",
  '102   execve("/bin/sh", ["/bin/sh", "-c", "..."], 0x0 /* 1 var */) = 0',
  "100   <... clone3 resumed>) = 102",
  "102   clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 103",
  '103   execve("git", ["git", "init"], 0x0) = -1 ENOENT (No such file or directory)',
  '103   execve("/usr/bin/git", ["git", "init"], 0x0) = 0',
  "101   clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD}, 88) = 104",
  '104   execve("/usr/bin/setpriv", ["setpriv"], 0x0) = 0',
  '104   execve("/usr/bin/unshare", ["unshare"], 0x0) = 0',
  "104   clone(child_stack=NULL, flags=SIGCHLD) = 105",
  '105   execve("/bin/sh", ["/bin/sh", "pid-init.sh"], 0x0) = 0',
  "105   clone(child_stack=NULL, flags=SIGCHLD) = 2 /* 106 in strace's PID NS */",
  '106   execve("/cache/claude", ["claude"], 0x0) = 0',
  "106   clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 107 in strace's PID NS */",
  '107   execve("/usr/bin/git", ["git", "status"], 0x0) = 0',
  "107   +++ exited with 0 +++",
].join("\n");

describe("the process tree of an strace log", () => {
  const all = parseProcessTree(LOG);

  it("knows each process's parent and programs, threads folded into their process", () => {
    expect(all.map((p) => [p.pid, p.parent, p.programs.length])).toEqual([
      [100, null, 1],
      [102, 100, 1],
      [103, 102, 1],
      [104, 100, 2],
      [105, 104, 1],
      [106, 105, 1],
      [107, 106, 1],
    ]);
  });

  it("counts witness's helpers apart from the CLI and what the CLI started", () => {
    const helpers = helperProcesses(all, (program) => program === "/cache/claude");
    expect(helpers.map((p) => describeProcess(p, all))).toEqual([
      "sh",
      "git",
      "setpriv → unshare",
      "sh",
    ]);
  });
});
