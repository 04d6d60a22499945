// The fake server's responder for one CLI version: its side routes first, then its wire protocol
// playing the script, with the CLI's helper calls answered by text.
import type { Script } from "../contracts/script.js";
import type { Responder } from "../fake/server.js";
import { withSideRoutes } from "../fake/side-routes.js";
import type { ProbeDriver } from "./driver.js";

/** What the fake server answers for `driver` at `version` while it plays `script`. */
export function driverResponder(driver: ProbeDriver, script: Script, version: string): Responder {
  const play = driver.wire.responder(script, driver.naming, driver.helperCall);
  return withSideRoutes(play, driver.sideRoutes?.(version) ?? []);
}
