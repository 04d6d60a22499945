// What Cline 3.x reads and writes, as read by hand on 3.0.57 and 3.0.65 offline against a loopback
// fake (every file below was planted with a marker and looked for on the wire). 2.x is another
// program (the VS Code extension's core as a Node bundle) that witness does not drive.
import type { CliFacts } from "../facts.js";

/** Cline's facts (3.x). */
export const CLINE_FACTS: CliFacts = {
  instructionFiles: [
    { at: "workspace", path: "AGENTS.md", when: "the cwd only (not the git root, not below)" },
    { at: "workspace", path: ".clinerules", when: "a file in the cwd" },
    { at: "workspace", path: ".clinerules/*.md", when: "the directory's top level only" },
    { at: "workspace", path: ".cline/rules/*.md", when: "always, in the cwd" },
    { at: "home", path: ".agents/AGENTS.md", when: "always" },
    { at: "home", path: ".cline/rules/*.md", when: "always ($CLINE_DIR/rules)" },
    { at: "home", path: "Cline/Rules/*.md", when: "always from 3.0.65; 3.0.57 not (record 0047)" },
    { at: "home", path: "Documents/Cline/Rules/*.md", when: "always" },
  ],
  configDir: {
    variables: [{ name: "CLINE_DIR" }],
    fallback: { base: "HOME", path: ".cline" },
  },
  sessions: {
    variables: [
      { name: "CLINE_SESSION_DATA_DIR" },
      { name: "CLINE_DATA_DIR", sub: "sessions" },
      { name: "CLINE_DIR", sub: "data/sessions" },
    ],
    fallback: { base: "HOME", path: ".cline/data/sessions" },
    layout: "<session id>/<session id>.messages.json",
  },
  switches: [
    { name: "-s / --system-prompt", effect: "replaces the base prompt; the rules stay" },
    { name: "CLINE_DIR / --config", effect: "moves ~/.cline (its rules, settings and sessions)" },
    { name: "-p / --plan", effect: "plan mode: no editor tool, writing commands refused" },
    {
      name: "--auto-approve false",
      effect: "every tool call needs a TTY approval: denied headless",
    },
    { name: "-y / --yolo", effect: "runs every tool; the run ends only at submit_and_exit" },
  ],
  // Greps of the 3.0.65 binary for /etc/, ProgramData and managed found none of Cline's own.
  managedFiles: [],
  trust: null,
};
