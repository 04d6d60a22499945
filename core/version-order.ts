// Ordering of published version numbers (major.minor.patch, optional pre-release), as npm sorts them.

function parts(version: string): { nums: number[]; pre: string | null } {
  const [core = ""] = version.split(/[-+]/);
  const dash = version.indexOf("-");
  const pre = dash < 0 ? null : (version.slice(dash + 1).split("+")[0] ?? "");
  return { nums: core.split(".").map((n) => Number.parseInt(n, 10) || 0), pre };
}

/** Negative when `a` comes before `b`, positive after, 0 when equal (semver precedence). */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  // A pre-release sorts before its release; two pre-releases compare as text.
  if (x.pre === null || y.pre === null) return x.pre === y.pre ? 0 : x.pre === null ? 1 : -1;
  return x.pre.localeCompare(y.pre, "en", { numeric: true });
}

/** True when `version` is at least `from` and, when given, before `until`. */
export function inRange(version: string, from: string, until?: string): boolean {
  return (
    compareVersions(version, from) >= 0 &&
    (until === undefined || compareVersions(version, until) < 0)
  );
}

/** True for a release (no pre-release part such as `-alpha.1`). */
export function isRelease(version: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version);
}
