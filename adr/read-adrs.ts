// Every ADR of a repository as the gate reads it: each Markdown-like file docs/adr holds (any
// case, any depth), each read within a bound; a file the gate refuses is a failing row, by name.
import { join } from "node:path";

import { listAdrFiles, MAX_ADR_BYTES } from "../core/adr-files.js";
import { InputError } from "../core/errors.js";
import { readUserFile } from "../core/read-input.js";
import { type AdrDoc, parseAdr } from "./parse-adr.js";

function refused(path: string, problem: string): AdrDoc {
  return { file: path, id: path, title: path, status: null, requires: null, problems: [problem] };
}

/** The ADRs under docs/adr of the repository at `root`, in path order. */
export async function readAdrs(root: string): Promise<AdrDoc[]> {
  const adrs: AdrDoc[] = [];
  for (const file of await listAdrFiles(root)) {
    if (file.problem !== null) {
      adrs.push(refused(file.path, `${file.path}: ${file.problem}`));
      continue;
    }
    try {
      const bytes = await readUserFile(join(root, file.path), "an ADR", undefined, {
        maxBytes: MAX_ADR_BYTES,
        noSymlink: true,
      });
      adrs.push(parseAdr(bytes.toString("utf8"), file.path));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      adrs.push(
        refused(file.path, `${file.path}: ${error.issues.map((i) => i.message).join("; ")}`),
      );
    }
  }
  return adrs;
}
