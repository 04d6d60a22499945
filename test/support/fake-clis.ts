// A fake vendor CLI for orchestrate tests: a POSIX sh script that records each call and exits.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One recorded invocation. */
export interface FakeCall {
  bin: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A PATH directory holding fake binaries, and the log they write to. */
export interface FakeClis {
  bin: string;
  /** Makes every fake exit 3 while on. */
  failing(on: boolean): void;
  calls(): FakeCall[];
}

/** Writes fake `names` into `<dir>/bin`; each call is recorded under `<dir>/log`. */
export function fakeClis(dir: string, names: readonly string[]): FakeClis {
  const bin = join(dir, "bin");
  const log = join(dir, "log");
  mkdirSync(bin, { recursive: true });
  mkdirSync(log, { recursive: true });
  const script = [
    "#!/bin/sh",
    `log='${log}'`,
    'i=$(ls "$log" | grep -c "\\.argv$")',
    "i=$((i + 1))",
    'printf "%s" "$(basename "$0")" > "$log/$i.bin"',
    'printf "%s" "$PWD" > "$log/$i.cwd"',
    'env -0 > "$log/$i.env"',
    'printf "%s\\0" "$@" > "$log/$i.argv"',
    'if [ -f "$log/fail" ]; then echo "failing as asked" >&2; exit 3; fi',
    "echo done",
  ].join("\n");
  for (const name of names) {
    writeFileSync(join(bin, name), `${script}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const split = (text: string) => (text === "" ? [] : text.split("\0").slice(0, -1));
  return {
    bin,
    failing(on) {
      if (on) writeFileSync(join(log, "fail"), "");
      else rmSync(join(log, "fail"), { force: true });
    },
    calls() {
      const count = readdirSync(log).filter((name) => name.endsWith(".argv")).length;
      return Array.from({ length: count }, (_, index) => {
        const at = (ext: string) => readFileSync(join(log, `${index + 1}.${ext}`), "utf8");
        const env = Object.fromEntries(
          split(at("env")).map((line) => [
            line.slice(0, line.indexOf("=")),
            line.slice(line.indexOf("=") + 1),
          ]),
        );
        return { bin: at("bin"), args: split(at("argv")), env, cwd: at("cwd") };
      });
    },
  };
}
