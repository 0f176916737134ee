import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";

// In a child with --expose-gc: the ephemeral private CryptoKey is watched through a WeakRef; once the opening has
// closed and the signer dropped it, a garbage collection must free it (nothing else holds the key).
const SCRIPT = `
const sdk = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
const generate = crypto.subtle.generateKey.bind(crypto.subtle);
let watched;
crypto.subtle.generateKey = async (...args) => { const pair = await generate(...args); watched ??= new WeakRef(pair.privateKey); return pair; };
let now = Date.UTC(2026, 10, 25, 22, 30);
const signer = sdk.createZttSigner({ window: [330, 30], zone: "Z1", authority: sdk.createMemorySigner(), clock: () => now });
await signer.sign("x");
const before = watched.deref() !== undefined;
now = Date.UTC(2026, 10, 26, 0, 0, 0, 1);
const holds = signer.holdsKey();
await new Promise((r) => setTimeout(r, 0));
globalThis.gc();
await new Promise((r) => setTimeout(r, 0));
globalThis.gc();
console.log(JSON.stringify({ before, holds, collected: watched.deref() === undefined }));
`;

it("after the window closes the ephemeral private key is unreachable (collected)", () => {
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", SCRIPT], { encoding: "utf8", timeout: 8000 });
  expect(JSON.parse(out)).toEqual({ before: true, holds: false, collected: true });
}, 10_000);
