// The probes package's public surface: run a probe, manage the vendor cache, and the shared contracts.
export { checkManaged, runProbe, type RunProbeOptions } from "./run-probe.js";
/** Call after a batch of probes so a namespace prepared for a next spawn does not linger (≤ 1 s). */
export * from "../clis/catalog.js";
export * from "../clis/names.js";
export { PINNED } from "../clis/pinned.js";
export { markerValue, newNonce } from "./cell/markers.js";
export * from "./contracts/fixture.js";
export * from "./contracts/observation.js";
export * from "./contracts/probe-spec.js";
export * from "./contracts/script.js";
export type { ProbeDriver, TranscriptFacts } from "./drivers/driver.js";
export { driverFor } from "./drivers/index.js";
export { anthropicMessages } from "./fake/anthropic-messages.js";
export { openaiResponses } from "./fake/openai-responses.js";
export { type CapturedRequest, type FakeServer, startFakeServer } from "./fake/server.js";
export type { CallNaming, IssuedCall, WireProtocol } from "./fake/wire.js";
export { netnsTools, releaseWarmSlot } from "./isolation/netns.js";
export {
  cliPath,
  defaultCacheDir,
  ensureCli,
  listCli,
  type VendorCacheOptions,
  type VendorEntry,
} from "./vendor-cache.js";
