import { readlinkSync } from "node:fs";
import { mkdir, mkdtemp, open, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeFileDurably } from "../src/node/index.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "write-durably-"));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const leftovers = async (): Promise<string[]> => (await readdir(dir)).filter((name) => name.endsWith(".tmp"));

describe("writeFileDurably", () => {
  it("creates a file, then replaces it, from text or bytes", async () => {
    const path = join(dir, "a.json");
    await writeFileDurably(path, "first\n");
    expect(await readFile(path, "utf8")).toBe("first\n");
    await writeFileDurably(path, new TextEncoder().encode("second"));
    expect(await readFile(path, "utf8")).toBe("second");
    expect(await leftovers()).toEqual([]);
  });

  it("creates files readable by the owner only, unless told another mode (less the umask)", async () => {
    const secret = join(dir, "secret");
    await writeFileDurably(secret, "k");
    expect((await stat(secret)).mode & 0o777).toBe(0o600);
    const plain = join(dir, "plain");
    await writeFileDurably(plain, "p", { mode: 0o666 });
    expect((await stat(plain)).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it("fsyncs the new contents before the rename and the directory after it", async () => {
    const path = join(dir, "ledger.snapshot");
    await writeFile(path, "old");
    const syncs: { file: string; target: string }[] = [];
    const probe = await open(path, "r");
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const original = proto.sync;
    vi.spyOn(proto, "sync").mockImplementation(async function (this: { fd: number }) {
      syncs.push({ file: basename(readlinkSync(`/proc/self/fd/${this.fd}`)), target: await readFile(path, "utf8") });
      return original.call(this);
    });
    await writeFileDurably(path, "new");
    // The temporary file is synced while the target still holds the old contents, the directory once the rename is done.
    expect(syncs).toEqual([
      { file: expect.stringMatching(/^\.ledger\.snapshot\.[0-9a-f]{12}\.tmp$/), target: "old" },
      { file: basename(dir), target: "new" },
    ]);
  });

  it("leaves the target and no temporary file behind when the rename fails", async () => {
    const path = join(dir, "taken");
    await mkdir(path);
    await expect(writeFileDurably(path, "x")).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EPERM)$/) });
    expect((await stat(path)).isDirectory()).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it("rejects when the directory does not exist, creating nothing", async () => {
    await expect(writeFileDurably(join(dir, "missing", "f"), "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("lets concurrent writers of one file each replace it whole: the file ends as one of their texts", async () => {
    const path = join(dir, "shared");
    const texts = Array.from({ length: 8 }, (_, i) => `${String(i).repeat(10_000 + i)}\n`);
    await Promise.all(texts.map((text) => writeFileDurably(path, text)));
    expect(texts).toContain(await readFile(path, "utf8"));
    expect(await leftovers()).toEqual([]);
  });

  it("with replace: false, creates a file and never replaces one: of writers racing to create it, exactly one wins", async () => {
    const path = join(dir, "key.pem");
    const texts = Array.from({ length: 8 }, (_, i) => `key ${i}\n`);
    const results = await Promise.allSettled(texts.map((text) => writeFileDurably(path, text, { replace: false })));
    const won = results.flatMap((result, i) => (result.status === "fulfilled" ? [texts[i]] : []));
    expect(won).toHaveLength(1);
    expect(await readFile(path, "utf8")).toBe(won[0]);
    for (const result of results) if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "EEXIST" });
    expect(await leftovers()).toEqual([]);
  });
});
