// The probes package's public surface: run a probe, manage the vendor cache, and the shared contracts.
export { runProbe, type RunProbeOptions } from "./run-probe.js";
/** Call after a batch of probes so a namespace prepared for a next spawn does not linger (≤ 1 s). */
export { releaseWarmSlot, netnsTools } from "./isolation/netns.js";
export {
  cliPath,
  defaultCacheDir,
  ensureCli,
  listCli,
  VENDOR_PACKAGES,
  type VendorCacheOptions,
  type VendorEntry,
} from "./vendor-cache.js";
export * from "./contracts/fixture.js";
export * from "./contracts/script.js";
export * from "./contracts/probe-spec.js";
export * from "./contracts/observation.js";
export { PINNED } from "./contracts/pinned.js";
export { markerValue, newNonce } from "./cell/markers.js";
export { startFakeServer, type CapturedRequest, type FakeServer } from "./fake/server.js";
export { anthropicResponder } from "./fake/anthropic-messages.js";
export { openaiResponder } from "./fake/openai-responses.js";
