// Every model call a spawn made, by kind: the agent's own conversation, a sub-agent's, a helper
// call its driver recognises, the permission classifier, or unclassified. The fake answers all
// of them; this says which was which and how it was answered, so a new kind of call (a title, a
// compaction, a classifier) shows up in the record and in drift instead of passing as a turn.
import type { ModelCall } from "../contracts/observation.js";
import type { CapturedRequest } from "../fake/server.js";
import { HELPER_ANSWER, list, record, type WireProtocol } from "../fake/wire.js";

const CLASSIFIER_ANSWER = "classifier:";

/** What the answer to a kind of call can decide, where it can decide an outcome. */
const DECIDES: Record<string, string> = {
  "permission-classifier": "approves or blocks a tool call (the script's `classifier` answers it)",
  "helper:bash-prefix": "the command prefix permission rules are matched against",
};

/**
 * The first user message of a body, as JSON text: the same on every turn of one conversation
 * (Messages and Chat Completions `messages`, Responses `input`, Gemini `contents`).
 */
export function conversationKey(body: unknown): string | null {
  const b = record(body);
  const items = list(b.messages ?? b.input ?? b.contents);
  const first = items.find((m) => record(m).role === "user");
  if (first === undefined) return null;
  const m = record(first);
  return JSON.stringify(m.content ?? m.parts ?? null);
}

/** The kind of each request answered on the model route, in order; null for side traffic. */
export function modelCallKinds(
  wire: Pick<WireProtocol, "isAgentRequest" | "offeredTools">,
  requests: readonly CapturedRequest[],
): (string | null)[] {
  // The agent's own conversation, per spawn of an orchestrator: the first that offers tools
  // (else the first agent request at all).
  const main = new Map<number, string | null>();
  const agent = requests.filter(
    (r) => wire.isAgentRequest(r) && !r.answer.startsWith(CLASSIFIER_ANSWER),
  );
  for (const r of [...agent.filter((q) => wire.offeredTools(q.body).length > 0), ...agent]) {
    const spawn = r.spawn ?? 0;
    if (!main.has(spawn)) main.set(spawn, conversationKey(r.body));
  }
  return requests.map((r) => {
    if (r.answer.startsWith(HELPER_ANSWER)) return `helper:${r.answer.slice(HELPER_ANSWER.length)}`;
    if (r.answer.startsWith(CLASSIFIER_ANSWER)) return "permission-classifier";
    if (!wire.isAgentRequest(r)) return null;
    if (conversationKey(r.body) === main.get(r.spawn ?? 0)) return "main";
    return wire.offeredTools(r.body).length > 0 ? "sub-agent" : "unclassified";
  });
}

/** The spawn's model calls by kind, first-seen order, each with how the fake answered it. */
export function modelCallSummary(
  wire: Pick<WireProtocol, "isAgentRequest" | "offeredTools">,
  requests: readonly CapturedRequest[],
): ModelCall[] {
  const kinds = modelCallKinds(wire, requests);
  const byKind = new Map<string, ModelCall>();
  requests.forEach((r, i) => {
    const kind = kinds[i];
    if (kind === null || kind === undefined) return;
    const call = byKind.get(kind) ?? {
      kind,
      count: 0,
      answers: [],
      ...(DECIDES[kind] === undefined ? {} : { decides: DECIDES[kind] }),
    };
    call.count += 1;
    if (!call.answers.includes(r.answer)) call.answers.push(r.answer);
    byKind.set(kind, call);
  });
  return [...byKind.values()];
}
