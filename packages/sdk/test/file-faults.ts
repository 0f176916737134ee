import { readlinkSync, realpathSync } from "node:fs";
import { open } from "node:fs/promises";
import { vi } from "vitest";

type HandleMethod = "datasync" | "truncate" | "write";

/**
 * Makes the next call of a `FileHandle` method on the file at `path` reject
 * with `error`, leaving every other file (the home's lock among them) alone.
 * The handle's file is found from its descriptor (Linux `/proc/self/fd`).
 * Undo with `vi.restoreAllMocks()`.
 */
export async function failNextOn(path: string, method: HandleMethod, error: Error): Promise<void> {
  const target = realpathSync(path);
  const probe = await open(target, "r");
  await probe.close();
  const proto = Object.getPrototypeOf(probe) as Record<HandleMethod, (...args: unknown[]) => Promise<unknown>>;
  const original = proto[method];
  let pending = true;
  vi.spyOn(proto, method).mockImplementation(function (this: { fd: number }, ...args: unknown[]) {
    if (pending && readlinkSync(`/proc/self/fd/${this.fd}`) === target) {
      pending = false;
      return Promise.reject(error);
    }
    return original.apply(this, args);
  });
}
