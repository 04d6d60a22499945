// The cell view: the file system a sandboxed CLI and its tool calls see. A root of witness's own
// holding the system read-only (/usr, /etc, the /bin-style links), a /proc of the spawn's PID
// namespace, a minimal /dev, a private /tmp, and, at their own paths, the cell (writable) and the
// directories the spawn runs from (read-only: the vendor CLI's install, witness's package). The
// rest of the host (other cells, the fake servers' sockets, the operator's HOME) is not there.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

import { InternalError } from "../../core/errors.js";
import { WITNESS_CLI } from "../contracts/placeholders.js";
import { makeOwnedTempDir } from "../leftovers.js";

/** witness's package root (dist/cli/main.js three levels up): bound read-only into every view. */
export const WITNESS_ROOT_DIR = dirname(dirname(dirname(WITNESS_CLI)));

/** What one spawn's view holds besides the system. */
export interface ViewSpec {
  /** Bound writable at its own path. */
  cell: string;
  /** Bound read-only at their own paths. */
  readOnly: readonly string[];
  /** Covered by an empty read-only tmpfs (managed: mask). */
  masks: readonly string[];
}

/** The top-level links or directories of a usr-merged or split system, shown as the host has them. */
const TOP_LEVEL = ["bin", "sbin", "lib", "lib64", "lib32", "libx32"] as const;
/** Device nodes bound from the host's /dev; nothing else of it is shown. */
const DEVICES = ["null", "zero", "full", "random", "urandom", "tty"] as const;
const DEV_LINKS: readonly [string, string][] = [
  ["ptmx", "pts/ptmx"],
  ["fd", "/proc/self/fd"],
  ["stdin", "/proc/self/fd/0"],
  ["stdout", "/proc/self/fd/1"],
  ["stderr", "/proc/self/fd/2"],
];

/** fstab escapes for a path: space, tab, newline and backslash as octal. */
export function fstabPath(path: string): string {
  return path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

const line = (source: string, target: string, type: string, options: string) =>
  `${fstabPath(source)} ${fstabPath(target)} ${type} ${options} 0 0`;

/** The host's top-level entries as the view shows them: a link copied, a directory bound read-only. */
export function topLevel(
  kindOf: (path: string) => "link" | "dir" | null = hostKind,
): { name: string; kind: "link" | "dir" }[] {
  return TOP_LEVEL.flatMap((name) => {
    const kind = kindOf(`/${name}`);
    return kind === null ? [] : [{ name, kind }];
  });
}

function hostKind(path: string): "link" | "dir" | null {
  try {
    const stat = lstatSync(path);
    return stat.isSymbolicLink() ? "link" : stat.isDirectory() ? "dir" : null;
  } catch {
    return null;
  }
}

/**
 * The mounts that build one spawn's view under `root`, in order (mount -a -T reads them top down):
 * the root itself (pivot_root needs a mount point), the system read-only, /proc, /dev, /tmp, then
 * the spawn's directories, a parent before what lies in it, and the masks last.
 */
export function viewMounts(
  root: string,
  spec: ViewSpec,
  top: readonly { name: string; kind: "link" | "dir" }[] = topLevel(),
): string[] {
  for (const path of [spec.cell, ...spec.readOnly, ...spec.masks])
    if (!isAbsolute(path) || resolve(path) !== path || path === "/")
      throw new InternalError(`view: expected an absolute, normal path below /, got ${path}`);
  const at = (path: string) => join(root, path);
  const ro = "bind,ro,nosuid,nodev";
  const binds = [
    { path: spec.cell, options: "bind,nosuid,nodev,X-mount.mkdir" },
    ...spec.readOnly.map((path) => ({ path, options: `${ro},X-mount.mkdir` })),
  ].sort((a, b) => a.path.split("/").length - b.path.split("/").length);
  return [
    line(root, root, "none", "bind,nosuid,nodev"),
    line("/usr", at("/usr"), "none", ro),
    // Recursive: a container's /etc/hosts or resolv.conf is often a mount of its own.
    line("/etc", at("/etc"), "none", "rbind,ro,nosuid,nodev"),
    ...top
      .filter((t) => t.kind === "dir")
      .map((t) => line(`/${t.name}`, at(`/${t.name}`), "none", ro)),
    line("proc", at("/proc"), "proc", "nosuid,nodev,noexec"),
    ...DEVICES.map((name) => line(`/dev/${name}`, at(`/dev/${name}`), "none", "bind,nosuid")),
    line("devpts", at("/dev/pts"), "devpts", "newinstance,ptmxmode=0666,mode=620,nosuid,noexec"),
    line("shm", at("/dev/shm"), "tmpfs", "nosuid,nodev,mode=1777"),
    line("tmp", at("/tmp"), "tmpfs", "nosuid,nodev,mode=1777"),
    ...binds.map((b) => line(b.path, at(b.path), "none", b.options)),
    ...spec.masks.map((dir) =>
      line(
        "witness-masked",
        at(dir),
        "tmpfs",
        "ro,nosuid,nodev,noexec,size=4k,mode=0755,X-mount.mkdir",
      ),
    ),
  ];
}

/** The template every view starts from: mount points, the /bin-style links, /dev's files and links. */
function buildRoot(root: string): void {
  for (const d of ["usr", "etc", "proc", "tmp", "dev/pts", "dev/shm"])
    mkdirSync(join(root, d), { recursive: true });
  for (const t of topLevel())
    if (t.kind === "link") symlinkSync(readlinkSync(`/${t.name}`), join(root, t.name));
    else mkdirSync(join(root, t.name));
  for (const name of DEVICES) writeFileSync(join(root, "dev", name), "");
  for (const [name, target] of DEV_LINKS) symlinkSync(target, join(root, "dev", name));
}

/** One spawn's view, ready to mount: the root to pivot into and the fstab that fills it. */
export interface PreparedView {
  root: string;
  fstab: string;
  /** A host path the view leaves out (the template's own directory): seen, the view did not hold. */
  hostPath: string;
  /** Removes the fstab (the mounts went with the spawn's mount namespace). */
  dispose(): Promise<void>;
}

// The template is shared by the spawns of this process and removed a second after the last one
// ends (the next spawn of a run starts well within it): a process that ends without its exit
// hooks (a test worker) then leaves nothing behind, and a run builds it once.
const IDLE_MS = 1000;
let template: Promise<{ dir: string; root: string }> | null = null;
let templateDir: string | null = null;
let liveViews = 0;
let idleTimer: NodeJS.Timeout | null = null;
let fstabs = 0;
process.on("exit", () => {
  if (templateDir !== null) rmSync(templateDir, { recursive: true, force: true });
});

function takeTemplate(): Promise<{ dir: string; root: string }> {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = null;
  template ??= (async () => {
    const dir = await makeOwnedTempDir("witness-view-");
    templateDir = dir;
    buildRoot(join(dir, "root"));
    return { dir, root: join(dir, "root") };
  })();
  return template;
}

function releaseTemplate(): void {
  if (liveViews > 0) return;
  idleTimer = setTimeout(() => void removeViewTemplate(), IDLE_MS);
  idleTimer.unref();
}

/** Removes the view template now unless a spawn is using it (test workers end without exit hooks). */
export async function removeViewTemplate(): Promise<void> {
  if (liveViews > 0) return;
  if (idleTimer !== null) clearTimeout(idleTimer);
  const dir = templateDir;
  template = null;
  templateDir = null;
  idleTimer = null;
  if (dir !== null) await rm(dir, { recursive: true, force: true });
}

/**
 * Writes the fstab of one spawn's view into the template's directory (owned, so `witness clean`
 * removes it after a crash). witness's package is always in the view, read-only: the launch runs
 * its report.sh from there (and protocols run its MCP sentinel server and detector).
 */
export async function prepareView(spec: ViewSpec): Promise<PreparedView> {
  liveViews += 1;
  try {
    const { dir, root } = await takeTemplate();
    fstabs += 1;
    const fstab = join(dir, `fstab-${fstabs}`);
    const readOnly = outermost([...spec.readOnly, packageDir(WITNESS_ROOT_DIR)]);
    await writeFile(fstab, `${viewMounts(root, { ...spec, readOnly }).join("\n")}\n`, {
      mode: 0o600,
    });
    let disposed = false;
    return {
      root,
      fstab,
      hostPath: dir,
      dispose: async () => {
        if (disposed) return;
        disposed = true;
        await rm(fstab, { force: true });
        liveViews -= 1;
        releaseTemplate();
      },
    };
  } catch (error) {
    liveViews -= 1;
    releaseTemplate();
    throw error;
  }
}

/**
 * The directories a spawn runs from, to bind read-only: the vendor install holding `bin` (the
 * directory with its witness-vendor.json, else the binary's own) and each PATH directory the
 * system directories do not already show.
 */
export function spawnDirs(input: {
  bin: string;
  path: string;
  exists?: (path: string) => boolean;
}): string[] {
  const exists = input.exists ?? existsSync;
  const dirs = [vendorDir(input.bin, exists)];
  const shown = ["/usr", "/etc", ...TOP_LEVEL.map((t) => `/${t}`)];
  for (const entry of input.path.split(":")) {
    if (!isAbsolute(entry) || !exists(entry)) continue;
    if (shown.some((s) => entry === s || entry.startsWith(`${s}/`))) continue;
    dirs.push(resolve(entry));
  }
  return outermost(dirs);
}

/** Each directory once, without those inside another (its parent's bind shows them). */
export function outermost(dirs: readonly string[]): string[] {
  const all = [...new Set(dirs)].sort();
  return all.filter((d) => !all.some((p) => p !== d && d.startsWith(`${p}/`)));
}

function vendorDir(bin: string, exists: (path: string) => boolean): string {
  for (let dir = dirname(bin); dir !== dirname(dir); dir = dirname(dir))
    if (exists(join(dir, "witness-vendor.json"))) return dir;
  return dirname(bin);
}

/** Where witness's package and its dependencies lie: its root, or the node_modules holding it. */
export function packageDir(root: string): string {
  const parent = dirname(root);
  if (basename(parent) === "node_modules") return parent;
  if (basename(parent).startsWith("@") && basename(dirname(parent)) === "node_modules")
    return dirname(parent);
  return root;
}
