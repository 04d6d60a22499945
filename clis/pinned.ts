// The pinned version of every CLI with a driver, as name@version pairs (from the catalog).
import { pinnedVersion, PROBE_CLI_NAMES, type ProbeCliName } from "./names.js";

/** A CLI and an exact version. */
export interface PinnedRef<N extends ProbeCliName = ProbeCliName> {
  name: N;
  version: string;
}

/** The CLI versions the shipped protocols and the live tests are pinned to. */
export const PINNED = Object.fromEntries(
  PROBE_CLI_NAMES.map((name) => [name, { name, version: pinnedVersion(name) }]),
) as { readonly [N in ProbeCliName]: PinnedRef<N> };
