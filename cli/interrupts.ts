// Signals that end a command early: Ctrl-C, a polite kill, a closed terminal. Each aborts the
// work (spawns end, cells are removed) and gives the exit code a shell expects (128 + its number).
const CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** While installed, the signals above abort `signal` instead of killing the process. */
export interface Interrupts {
  signal: AbortSignal;
  /** The exit code of the signal that arrived (130 when none did). */
  exitCode(): number;
  dispose(): void;
}

/** Installs the handlers; call `dispose` when the command is done. */
export function catchInterrupts(): Interrupts {
  const controller = new AbortController();
  let code = 130;
  const handlers = Object.entries(CODES).map(([name, exit]) => {
    const handler = () => {
      if (!controller.signal.aborted) code = exit;
      controller.abort();
    };
    // `on`, not `once`: execa's exit hook re-raises a signal once no other listener is left.
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    exitCode: () => code,
    dispose: () => {
      for (const [name, handler] of handlers) process.removeListener(name, handler);
    },
  };
}
