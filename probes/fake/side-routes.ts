// Side traffic: the requests a CLI sends besides its model calls (preconnects, health checks),
// answered the way a harmless real service would, and told apart from model requests.
import type { CapturedRequest, Reply, Responder } from "./server.js";
import { record } from "./wire.js";

/** A non-model request a CLI is known to send, and the reply a harmless service gives it. */
export interface SideRoute {
  method: string;
  /** The path without its query string, e.g. `/api/hello`. */
  path: string;
  status: number;
  /** A JSON body (none for HEAD). */
  body?: unknown;
  /** Which versions send it and why, in a few words (documentation). */
  why: string;
}

/** The answer recorded for a request a side route served. */
export const SIDE_ANSWER = "side";
/** The answer recorded for a request nothing in the fake serves. */
export const NOT_FOUND_ANSWER = "not-found";

/** The path of a request without its query string. */
export function routeOf(path: string): string {
  return path.split("?")[0] ?? path;
}

/** Answers the declared side routes itself and hands every other request to `inner`. */
export function withSideRoutes(inner: Responder, routes: readonly SideRoute[]): Responder {
  if (routes.length === 0) return inner;
  return (path, body, method) => {
    const route = routes.find((r) => r.method === method && r.path === routeOf(path));
    if (route === undefined) return inner(path, body, method);
    const reply: Reply = {
      kind: "json",
      status: route.status,
      body: route.body ?? {},
      answer: SIDE_ANSWER,
    };
    return reply;
  };
}

/**
 * True when an unserved request looks like a call to a model (a POST whose JSON body names a
 * model or carries messages, input or contents): the fake could not serve what the CLI needed.
 */
export function looksLikeModelRequest(request: Pick<CapturedRequest, "method" | "body">): boolean {
  if (request.method !== "POST") return false;
  const body = record(request.body);
  return ["model", "messages", "input", "contents"].some((key) => key in body);
}

/** True when a captured request is side traffic: served by a side route, or unserved and not a model call. */
export function isSideRequest(request: CapturedRequest): boolean {
  if (request.answer === SIDE_ANSWER) return true;
  return request.answer === NOT_FOUND_ANSWER && !looksLikeModelRequest(request);
}

/** Side requests grouped by method and path (query dropped), in first-seen order, with counts. */
export function sideRequestSummary(
  requests: readonly CapturedRequest[],
): { method: string; path: string; status: number; count: number }[] {
  const out = new Map<string, { method: string; path: string; status: number; count: number }>();
  for (const r of requests.filter(isSideRequest)) {
    const path = routeOf(r.path);
    const key = `${r.method} ${path}`;
    const seen = out.get(key);
    if (seen) seen.count += 1;
    else out.set(key, { method: r.method, path, status: r.status ?? 404, count: 1 });
  }
  return [...out.values()];
}
