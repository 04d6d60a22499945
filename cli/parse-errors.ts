// What yargs reports as "Not enough non-option arguments" is often a mistyped flag that swallowed a
// positional: find the flag the command does not know and name it, with the nearest known one.

/** A `--flag` the command does not declare, and the declared flag it most likely meant. */
export interface UnknownOption {
  flag: string;
  suggestion: string | null;
}

/** The message a command group gives when it is run without a subcommand (prints its help). */
export const GROUP_NEEDS_COMMAND = "witness: name a subcommand";

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * The first `--flag` in `argv` (before a bare `--`) that is none of `known` (kebab-case names,
 * camelCase spellings and `--no-` negations accepted); null when every flag is known.
 */
export function unknownOption(
  argv: readonly string[],
  known: readonly string[],
): UnknownOption | null {
  const names = new Set(known.map(kebab));
  for (const token of argv) {
    if (token === "--") break;
    const match = /^--([^=]+)/.exec(token);
    if (match?.[1] === undefined) continue;
    const name = kebab(match[1]);
    if (names.has(name) || (name.startsWith("no-") && names.has(name.slice(3)))) continue;
    const ranked = [...names]
      .map((k) => ({ k, d: distance(name, k) }))
      .filter(({ k, d }) => d <= Math.max(2, Math.floor(k.length / 3)))
      .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k));
    return { flag: `--${name}`, suggestion: ranked[0] === undefined ? null : `--${ranked[0].k}` };
  }
  return null;
}

/** The sentence for an unknown option, e.g. `unknown option --jsno (did you mean --json?)`. */
export function unknownOptionMessage(u: UnknownOption): string {
  return `unknown option ${u.flag}${u.suggestion === null ? "" : ` (did you mean ${u.suggestion}?)`}`;
}
