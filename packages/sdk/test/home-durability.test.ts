import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { contextAt, createTsaeRequest, sha256Hex } from "../src/index.js";
import { createLocalAuthority, type LocalAuthority } from "../src/node/index.js";
import { tempDir } from "./helpers.js";

// Records every directory the SDK fsyncs, while still syncing it for real.
const synced = vi.hoisted(() => [] as string[]);
vi.mock("../src/node/sync-directory.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/node/sync-directory.js")>();
  return {
    syncDirectory: async (directory: string) => {
      await real.syncDirectory(directory);
      synced.push(directory);
    },
  };
});

const request = createTsaeRequest(contextAt(Date.UTC(2025, 4, 1, 12)), { scope: "test.durable.v1", action_hash_hex: sha256Hex("action") });

/** Directories synced before the first anchor was acknowledged. */
async function syncedBeforeFirstAnchor(authority: LocalAuthority): Promise<string[]> {
  try {
    await authority.anchor(await authority.issueReceipt(request));
    return [...synced];
  } finally {
    await authority.close();
  }
}

describe("home durability", () => {
  beforeEach(() => {
    synced.length = 0;
  });

  it("syncs the parent of every directory it creates before acknowledging the first anchor", async () => {
    const root = await tempDir();
    const home = join(root, "a", "b", "home");
    const dirs = await syncedBeforeFirstAnchor(createLocalAuthority({ home }));
    // root/a, root/a/b and home are new entries in root, root/a and root/a/b; the key and ledger are new entries in home.
    expect(dirs).toEqual(expect.arrayContaining([root, join(root, "a"), join(root, "a", "b"), home]));
    expect(dirs).not.toContain(join(root, ".."));
  });

  it("syncs only what is new: nothing above an existing home", async () => {
    const root = await tempDir();
    const home = join(root, "home");
    await mkdir(home);
    const dirs = await syncedBeforeFirstAnchor(createLocalAuthority({ home }));
    expect(dirs).not.toContain(root);
    expect(dirs).toContain(home);
  });

  it("syncs the home when the ledger file exists but is empty (an earlier run may have crashed before syncing it)", async () => {
    const home = await tempDir();
    await syncedBeforeFirstAnchor(createLocalAuthority({ home })); // creates the key
    await writeFile(join(home, "clockchain.log"), "");
    synced.length = 0;
    expect(await syncedBeforeFirstAnchor(createLocalAuthority({ home }))).toEqual([home]);
  });

  it("does not sync the home again for a ledger that already has records", async () => {
    const home = await tempDir();
    await syncedBeforeFirstAnchor(createLocalAuthority({ home }));
    synced.length = 0;
    const authority = createLocalAuthority({ home });
    await authority.status();
    await authority.close();
    expect(synced).toEqual([]);
  });
});
