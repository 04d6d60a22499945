// Big synthetic transcripts for the transcripts bench, shaped like the recorded fixtures: a long
// session of tool calls whose results carry file contents. Written to a temp dir, never committed.
import { once } from "node:events";
import { createWriteStream } from "node:fs";

/** What a generated file holds, so a reader's result can be checked against it. */
export interface Synthetic {
  path: string;
  bytes: number;
  calls: number;
}

const OUTPUT_BYTES = 8 * 1024;
// A tool's output: source-like lines, different per call so nothing compresses into one string.
function output(n: number): string {
  const line = `${n.toString(36).padStart(8, "0")} const value = compute(input, options); // lorem ipsum dolor sit amet\n`;
  return line.repeat(Math.ceil(OUTPUT_BYTES / line.length)).slice(0, OUTPUT_BYTES);
}

async function write(
  path: string,
  targetBytes: number,
  head: string[],
  turn: (n: number) => string[],
): Promise<Synthetic> {
  const out = createWriteStream(path);
  let bytes = 0;
  const put = async (line: string) => {
    bytes += Buffer.byteLength(line) + 1;
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  for (const line of head) await put(line);
  let calls = 0;
  while (bytes < targetBytes) {
    for (const line of turn(calls)) await put(line);
    calls += 1;
  }
  out.end();
  await once(out, "finish");
  return { path, bytes, calls };
}

const SESSION = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
const common = {
  sessionId: SESSION,
  cwd: "/work/project",
  version: "2.1.332",
  isSidechain: false,
  userType: "external",
};

/**
 * A Claude Code session: one prompt record (with its permissionMode) at the top, then per call an
 * assistant tool_use record and a user tool_result record with 8 KiB of output. The only
 * permissionMode is on the first line: the parent-access detector's worst case.
 */
export function claudeSynthetic(path: string, bytes: number): Promise<Synthetic> {
  const prompt = {
    ...common,
    type: "user",
    permissionMode: "bypassPermissions",
    uuid: "u0",
    message: { role: "user", content: "refactor the project" },
  };
  return write(path, bytes, [JSON.stringify(prompt)], (n) => {
    const id = `toolu_${n.toString(36).padStart(10, "0")}`;
    const use = {
      ...common,
      type: "assistant",
      uuid: `a${n}`,
      message: {
        id: `msg_${n}`,
        model: "claude-opus-5-5",
        role: "assistant",
        usage: { input_tokens: 1200, output_tokens: 80 },
        content: [
          {
            type: "tool_use",
            id,
            name: "Read",
            input: { file_path: `/work/project/src/module-${n}.ts` },
          },
        ],
      },
    };
    const text = output(n);
    const result = {
      ...common,
      type: "user",
      uuid: `r${n}`,
      toolUseResult: {
        type: "text",
        file: { filePath: `/work/project/src/module-${n}.ts`, content: text },
      },
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: text, is_error: false }],
      },
    };
    return [JSON.stringify(use), JSON.stringify(result)];
  });
}

/**
 * A Codex rollout: session_meta and one turn_context at the top (one long `exec` turn: the
 * detector's worst case), then per call a custom exec call, its CommandExecution event and its
 * output (8 KiB each) and a token count.
 */
export function codexSynthetic(path: string, bytes: number): Promise<Synthetic> {
  const meta = {
    type: "session_meta",
    payload: {
      id: SESSION,
      cwd: "/work/project",
      cli_version: "0.171.0",
      originator: "codex_exec",
      model_provider: "openai",
    },
  };
  const turn = {
    type: "turn_context",
    payload: {
      cwd: "/work/project",
      approval_policy: "never",
      sandbox_policy: { type: "danger-full-access" },
      model: "gpt-6.2-sol",
    },
  };
  return write(path, bytes, [JSON.stringify(meta), JSON.stringify(turn)], (n) => {
    const id = `call_${n}`;
    const text = output(n);
    const lines = [
      {
        type: "response_item",
        payload: {
          type: "custom_tool_call",
          call_id: id,
          name: "exec",
          status: "completed",
          input: `const a = await tools.exec_command({cmd: "cat src/module-${n}.ts"});\ntext(JSON.stringify(a));`,
        },
      },
      {
        type: "event_msg",
        payload: {
          type: "item_completed",
          item: {
            type: "CommandExecution",
            id: `exec-${n}`,
            command: ["/bin/bash", "-lc", `cat src/module-${n}.ts`],
            status: "completed",
            exit_code: 0,
            aggregated_output: text,
          },
        },
      },
      {
        type: "response_item",
        payload: {
          type: "custom_tool_call_output",
          call_id: id,
          output: [
            { type: "input_text", text: "Script completed\n" },
            { type: "input_text", text: JSON.stringify({ exit_code: 0, output: text }) },
          ],
        },
      },
      {
        type: "event_msg",
        payload: {
          type: "token_count",
          info: {
            total_token_usage: {
              input_tokens: 1200 * (n + 1),
              cached_input_tokens: 0,
              output_tokens: 80 * (n + 1),
            },
          },
        },
      },
    ];
    return lines.map((line) => JSON.stringify(line));
  });
}
