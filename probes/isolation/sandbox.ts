// One sandboxed spawn's launch: a host uid of its own and the view of its cell (what the CLI, its
// tool calls and whatever they start can see), released when the spawn is over.
import { claimSpawnUid, type SandboxLaunch } from "./contain.js";
import { outermost, prepareView, spawnDirs } from "./view.js";

/** A sandbox ready for one spawn. */
export interface PreparedSandbox {
  launch: SandboxLaunch;
  /** Frees the uid and removes the view's fstab (the mounts went with the spawn). */
  dispose(): Promise<void>;
}

/**
 * The sandbox of one spawn of `bin` in `cell`: the cell writable, the vendor install, witness's
 * package and the spawn PATH's other directories read-only, `masks` covered.
 */
export async function prepareSandbox(input: {
  bin: string;
  path: string;
  cell: { root: string; cwd: string };
  masks: readonly string[];
  /** More directories to show read-only (an orchestrator's packages). */
  readOnly?: readonly string[];
}): Promise<PreparedSandbox> {
  const readOnly = outermost([
    ...spawnDirs({ bin: input.bin, path: input.path }),
    ...(input.readOnly ?? []),
  ]);
  const uid = claimSpawnUid();
  try {
    const view = await prepareView({ cell: input.cell.root, readOnly, masks: input.masks });
    return {
      launch: {
        view,
        uid: uid.uid,
        cwd: input.cell.cwd,
        masks: input.masks,
      },
      dispose: async () => {
        uid.release();
        await view.dispose();
      },
    };
  } catch (error) {
    uid.release();
    throw error;
  }
}
