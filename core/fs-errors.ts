// The errno code of a failed file operation, read one way everywhere.

/** The failed operation's errno code (ENOENT, EACCES …), or `fallback` when the error has none. */
export function errnoCode(error: unknown, fallback = "unreadable"): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : fallback;
}

/** True when a file operation failed with exactly `code`. */
export function hasErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}
