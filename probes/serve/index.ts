// `witness/fake`: the fake model servers as a library, for an orchestrator's own end-to-end tests
// against the real CLI binaries, outside any cell.
export { PROBE_CLI_NAMES, type ProbeCliName } from "../../clis/names.js";
export { type Script, scriptSchema } from "../contracts/script.js";
export { type CapturedRequest, capturedRequestSchema } from "../fake/server.js";
export { cliBaseUrl, type CliEnv, cliEnv, renderCliEnv } from "./cli-env.js";
export {
  type Fake,
  type ScriptInput,
  servedResponder,
  startFake,
  type StartFakeOptions,
} from "./fake-model.js";
