// Waits until a start time shared with its siblings, then loads (creating
// if needed) the home's key and prints its key id.
// Usage: node load-key.mjs <home> <start unix ms>
import { createLocalAuthority } from "../../dist/node/index.js";

const [home, startArg] = process.argv.slice(2);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startArg) - Date.now())));
const authority = createLocalAuthority({ home, lockWaitMs: 60_000 });
process.stdout.write(`${Object.keys(await authority.publicKeys())[0]}\n`);
await authority.close();
