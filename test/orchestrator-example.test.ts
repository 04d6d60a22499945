// The shell runner docs/orchestrators.md shows is the one that ran: protocol 0068 plants
// docs/examples/run-claude.sh byte for byte in every arm, and the guide quotes the same file.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { parseProtocol } from "../prereg/load.js";
import { WITNESS_ROOT } from "./support/built-cli.js";

const example = readFileSync(join(WITNESS_ROOT, "docs/examples/run-claude.sh"), "utf8");
const file = join(WITNESS_ROOT, "docs/prereg/0068-shell-runner-plan-then-act.yaml");
const protocol = parseProtocol(readFileSync(file, "utf8"), file);

describe("the guide's shell runner", () => {
  it.each(protocol.arms.map((a) => [a.id, a] as const))(
    "is what arm %s of protocol 0068 plants and runs",
    (_, arm) => {
      const planted = arm.fixture.files.filter((f) => f.path === "run-claude.sh");
      expect(planted.map((f) => f.content)).toEqual([example]);
      expect(arm.launch).toMatchObject({ orchestrator: { command: ["sh", "run-claude.sh"] } });
    },
  );

  it("is quoted whole in docs/orchestrators.md", () => {
    const guide = readFileSync(join(WITNESS_ROOT, "docs/orchestrators.md"), "utf8");
    expect(guide).toContain(`\`\`\`sh\n${example}\`\`\``);
  });
});
