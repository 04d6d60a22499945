// What a parsed YAML document holds once its aliases are expanded. YAML aliases let a small file
// stand for a huge value (an anchor of 5 MB named 100 times is 500 MB to anything that copies or
// serialises it) or for one that contains itself; both are refused where the file is read, before
// any work, instead of exhausting memory later.

/**
 * Why `value` is not a document witness will work on (null: it is): bigger than `maxBytes` once
 * expanded, or cyclic. The size counts each string and key by its length and every other node as
 * one, never more than the text of a document without aliases takes, so only aliases can exceed
 * the bound the file itself was held to.
 */
export function expandedProblem(value: unknown, maxBytes: number): string | null {
  let size = 0;
  const holding = new Set<object>();
  const tooBig = `expected at most ${maxBytes} bytes once its YAML aliases are expanded; got more`;
  const visit = (node: unknown): string | null => {
    size += typeof node === "string" ? node.length : 1;
    if (size > maxBytes) return tooBig;
    if (node === null || typeof node !== "object") return null;
    // `holding` is the path from the root: meeting a node on it again is a cycle.
    if (holding.has(node)) return "expected no YAML alias inside the node it names (a cycle)";
    holding.add(node);
    const entries = Array.isArray(node)
      ? node.map((v) => ["", v] as const)
      : Object.entries(node as Record<string, unknown>);
    for (const [key, child] of entries) {
      size += key.length;
      const problem = visit(child);
      if (problem !== null) return problem;
    }
    holding.delete(node);
    return null;
  };
  return visit(value);
}
