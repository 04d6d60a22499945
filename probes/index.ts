// The probes package's public surface: run a probe, manage the vendor cache, and the shared contracts.
export { runProbe, type RunProbeOptions } from "./run-probe.js";
/** Call after a batch of probes so a namespace prepared for a next spawn does not linger (≤ 1 s). */
export { markerValue, newNonce } from "./cell/markers.js";
export * from "./contracts/fixture.js";
export * from "./contracts/observation.js";
export { PINNED } from "./contracts/pinned.js";
export * from "./contracts/probe-spec.js";
export * from "./contracts/script.js";
export { anthropicResponder } from "./fake/anthropic-messages.js";
export { openaiResponder } from "./fake/openai-responses.js";
export { type CapturedRequest, type FakeServer, startFakeServer } from "./fake/server.js";
export { netnsTools, releaseWarmSlot } from "./isolation/netns.js";
export {
  cliPath,
  defaultCacheDir,
  ensureCli,
  listCli,
  VENDOR_PACKAGES,
  type VendorCacheOptions,
  type VendorEntry,
} from "./vendor-cache.js";
