import { open } from "node:fs/promises";

/** A file `readSmallFile` refused: it holds more than the limit. The message reads as the clause after "cannot read <file>:", as `describeIoError` gives it. */
export class FileTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`it holds more than ${formatBytes(limitBytes)}: no file of its kind is that large`);
    this.name = "FileTooLargeError";
  }
}

/**
 * The bytes of a file a program reads whole at its start or on a reload (a config, a key, a certificate), at most
 * `limitBytes` of them. Read whole without a bound, a wrong path could take all memory, or never end (`/dev/zero`);
 * a pipe (`--config <(vault read ...)`) is read as a file is, to its end. A regular file over the limit is refused by
 * its size before anything is read. A failed system call rejects with Node's error as it is (`errnoCode` and
 * `describeIoError` read it: a folder is EISDIR).
 */
export async function readSmallFile(path: string, limitBytes: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > limitBytes) throw new FileTooLargeError(limitBytes);
    // To the end rather than to the stat's size (a file may grow meanwhile; a device or a pipe has none), and one
    // byte past the limit at most.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(65_536, limitBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limitBytes) throw new FileTooLargeError(limitBytes);
    }
  } finally {
    await handle.close();
  }
}

function formatBytes(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
