// Every CLI's one classifier, by name: the driver and the transcript reader both ask here.
import { classifyClaudeCall } from "./claude-code/outcome.js";
import { classifyClineCall } from "./cline/outcome.js";
import { classifyCodexCall } from "./codex/outcome.js";
import { classifyCopilotCall } from "./copilot/outcome.js";
import { classifyGeminiCall } from "./gemini/outcome.js";
import { classifyKimiCall } from "./kimi/outcome.js";
import type { TranscriptCliName } from "./names.js";
import { classifyOpencodeCall } from "./opencode/outcome.js";
import type { CallClassifier } from "./outcome.js";
import { classifyPiCall } from "./pi/outcome.js";
import { classifyQwenCall } from "./qwen/outcome.js";

const CLASSIFIERS: Readonly<Record<TranscriptCliName, CallClassifier>> = {
  "claude-code": classifyClaudeCall,
  codex: classifyCodexCall,
  gemini: classifyGeminiCall,
  qwen: classifyQwenCall,
  pi: classifyPiCall,
  opencode: classifyOpencodeCall,
  copilot: classifyCopilotCall,
  // Kilo is an opencode fork with opencode's wordings and session rows (7.0.33, 7.7.7).
  kilo: classifyOpencodeCall,
  kimi: classifyKimiCall,
  cline: classifyClineCall,
};

/** The classifier of a CLI whose calls witness reads. */
export function classifierFor(name: TranscriptCliName): CallClassifier {
  return CLASSIFIERS[name];
}
