import { z } from "zod";

/** One tool call the fake model asks for. `{{sentinel:NAME}}` in any string becomes an absolute path. */
export const toolCallSchema = z.union([
  /** A named tool with its input, as the CLI defines it (Claude Code: Bash, Write, Skill …). */
  z.strictObject({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()) }),
  /** A shell command in the CLI's own shell tool (Claude Code Bash, Codex exec_command). */
  z.strictObject({ shell: z.string().min(1) }),
]);
export type ToolCall = z.infer<typeof toolCallSchema>;

/** Turns one script may play: bounded before any work. */
export const MAX_SCRIPT_TURNS = 100;
/** Tool calls one turn may ask for. */
export const MAX_TURN_CALLS = 50;

/** An infrastructure fault the fake server plays instead of a reply. */
export const faultSchema = z.union([
  z.strictObject({ status: z.number().int().min(400).max(599) }),
  z.strictObject({ truncate: z.literal(true) }),
  z.strictObject({ hang: z.literal(true) }),
]);
export type Fault = z.infer<typeof faultSchema>;

/** One model turn: text, tool calls (then the next turn answers their results), or a fault. */
export const turnSchema = z.union(
  [
    z.strictObject({ text: z.string() }),
    z.strictObject({ calls: z.array(toolCallSchema).min(1) }),
    z.strictObject({ fault: faultSchema }),
  ],
  // zod's own words for a union are "Invalid input": say what a turn may be.
  { error: "expected one of {text: <string>}, {calls: [<tool call>, …]}, {fault: <fault>}" },
);
export type Turn = z.infer<typeof turnSchema>;

/** The fake model's script. After the last turn it answers with `final`. */
export const scriptSchema = z.strictObject({
  turns: z
    .array(turnSchema)
    .max(MAX_SCRIPT_TURNS, { message: `expected at most ${MAX_SCRIPT_TURNS} turns` })
    // Here, not inside the turn's union, whose failure would only say "Invalid input".
    .superRefine((turns, ctx) => {
      turns.forEach((turn, i) => {
        if ("calls" in turn && turn.calls.length > MAX_TURN_CALLS)
          ctx.addIssue({
            code: "custom",
            path: [i, "calls"],
            message: `expected at most ${MAX_TURN_CALLS} calls in one turn`,
          });
      });
    })
    .default([]),
  final: z.string().default("done"),
  /** How Claude Code's auto/plan-mode security classifier is answered. */
  classifier: z.enum(["allow", "block"]).default("allow"),
});
export type Script = z.infer<typeof scriptSchema>;

const SENTINEL_RE = /\{\{sentinel:([A-Za-z0-9_]+)\}\}/g;

/** Sentinel names a script refers to, in first-seen order. */
export function sentinelNames(script: Script): string[] {
  const names = new Set<string>();
  for (const match of JSON.stringify(script.turns).matchAll(SENTINEL_RE)) names.add(match[1] ?? "");
  return [...names];
}

/** Every scripted call in script order: its 1-based place across turns, its turn and its place in the turn. */
export function scriptCalls(script: Script): { call: number; turn: number; position: number }[] {
  const out: { call: number; turn: number; position: number }[] = [];
  script.turns.forEach((turn, t) => {
    if ("calls" in turn)
      turn.calls.forEach((_c, position) => out.push({ call: out.length + 1, turn: t, position }));
  });
  return out;
}
