// The probes package's public surface: run a probe, manage the vendor cache, and the shared contracts.
export { runProbe, type RunProbeOptions } from "./run-probe.js";
/** Call after a batch of probes so a namespace prepared for a next spawn does not linger (≤ 1 s). */
export { releaseWarmSlot, netnsTools } from "./isolation.js";
export {
  cliPath,
  defaultCacheDir,
  ensureCli,
  listCli,
  VENDOR_PACKAGES,
  type VendorCacheOptions,
  type VendorEntry,
} from "./vendor-cache.js";
export * from "./fixture.js";
export * from "./script.js";
export * from "./probe-spec.js";
export * from "./observation.js";
export { PINNED } from "./pinned.js";
export { markerValue, newNonce } from "./markers.js";
export { startFakeServer, type CapturedRequest, type FakeServer } from "./fake-server.js";
export { anthropicResponder } from "./fake-anthropic.js";
export { openaiResponder } from "./fake-openai.js";
