// Whole-line appends: one write per line on a file opened for appending, flushed to disk, and a
// line that did not fit (a full disk) cut back off, so the file only ever holds complete lines.
import { open } from "node:fs/promises";

/** Appends `line` (a newline is added) to `file`, creating it; throws, with the file unchanged, on failure. */
export async function appendLine(file: string, line: string): Promise<void> {
  const data = Buffer.from(`${line}\n`, "utf8");
  const handle = await open(file, "a", 0o600);
  try {
    const { size } = await handle.stat();
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written);
        written += bytesWritten;
      }
      await handle.datasync();
    } catch (error) {
      await handle.truncate(size).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}
