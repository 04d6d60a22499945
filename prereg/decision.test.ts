import { describe, expect, it } from "vitest";

import { protocolText } from "../test/support/observations.js";
import { decisionSchema, gatesText } from "./decision.js";
import { parseProtocol } from "./load.js";

describe("the decision a protocol gates", () => {
  it.each([
    { external: "https://example.com/adr/7" },
    { external: "acme/runner:docs/adr/0007-sdk.md" },
    { none: "a survey of defaults; nothing rests on it" },
  ])("accepts %j", (decision) => {
    expect(decisionSchema.parse(decision)).toEqual(decision);
  });

  it.each([
    { external: "docs/adr/0007.md" },
    { external: "ftp://example.com/x" },
    { external: "acme/runner" },
    { none: "n/a" },
  ])("refuses %j", (decision) => {
    expect(decisionSchema.safeParse(decision).success).toBe(false);
  });

  it("takes the place of adr in a protocol, and says what it gates", () => {
    const text = protocolText().replace('adr: "0001"\n', "decision: { external: acme/r:d.md }\n");
    const protocol = parseProtocol(text, "docs/prereg/0001-demo.yaml");
    expect(protocol.adr).toBeUndefined();
    expect(gatesText(protocol)).toBe("the external decision acme/r:d.md");
    expect(gatesText({ adr: "0011" })).toBe("ADR 0011");
    expect(gatesText({ decision: { none: "nothing rests on it" } })).toBe(
      "no decision (nothing rests on it)",
    );
  });
});
