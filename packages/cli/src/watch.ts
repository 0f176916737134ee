import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { UsageError, stopText } from "./errors.js";
import { MISSION_EXTENSION, STDIN } from "./files.js";
import { clearScreen } from "./terminal.js";

/** Edits arrive as bursts of events (write, rename, chmod): one run per burst. */
const DEBOUNCE_MS = 100;
/** The exit status for Ctrl-C, as a shell reports a process killed by SIGINT. */
export const EXIT_INTERRUPTED = 130;

/**
 * Runs `once` now and again whenever a `.mission` file under `paths`
 * changes, until SIGINT (Ctrl-C) or SIGTERM, then resolves with 130 (143
 * for SIGTERM). Named files are watched through their folder, so an editor
 * that saves by renaming a new file over the old one is still seen; named
 * folders are watched recursively.
 */
export async function watchAndRun(paths: string[], once: () => Promise<number>): Promise<number> {
  if (paths.includes(STDIN)) throw new UsageError("INVALID_ARGUMENT", "--watch cannot watch standard input (-)");
  const targets = await Promise.all(paths.map(watchTarget));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(async () => {
      clearScreen(process.stderr);
      await once().catch((error: unknown) => {
        // A usage error in one run (a file removed meanwhile) is reported as main() reports it, and so is a bug; watching goes on.
        process.stderr.write(stopText(error));
      });
      process.stderr.write(`watching ${paths.join(" ")} for changes; press Ctrl-C to stop\n`);
    });
  };
  const watchers: FSWatcher[] = targets.map(({ folder, recursive, only }) =>
    watch(folder, { recursive }, (_event, name) => {
      const changed = name === null ? undefined : resolve(folder, name.toString());
      if (changed !== undefined && (only === undefined ? !changed.endsWith(MISSION_EXTENSION) : changed !== only)) return;
      clearTimeout(timer);
      timer = setTimeout(run, DEBOUNCE_MS);
    }),
  );
  run();
  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once("SIGINT", () => resolveSignal("SIGINT"));
    process.once("SIGTERM", () => resolveSignal("SIGTERM"));
  });
  clearTimeout(timer);
  for (const watcher of watchers) watcher.close();
  return signal === "SIGINT" ? EXIT_INTERRUPTED : 143;
}

async function watchTarget(path: string): Promise<{ folder: string; recursive: boolean; only?: string }> {
  const info = await stat(path).catch(() => {
    throw new UsageError("FILE_NOT_FOUND", `cannot watch ${path}: no such file or folder`);
  });
  if (info.isDirectory()) return { folder: resolve(path), recursive: true };
  return { folder: dirname(resolve(path)), recursive: false, only: resolve(dirname(resolve(path)), basename(path)) };
}
