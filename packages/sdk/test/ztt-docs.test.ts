import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { verifyZtt } from "../src/ztt/index.js";
import { WINDOW_CHECKS, outcome, passing } from "./ztt-helpers.js";

const markdown = readFileSync(new URL("../../../docs/ztt.md", import.meta.url), "utf8");
const [plain, anchored] = [...markdown.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1] as string));

it("verifies the worked example in docs/ztt.md", async () => {
  const result = await verifyZtt(plain.bundle, plain.keys, { payload: plain.payload });
  expect(outcome(result)).toEqual(passing(...WINDOW_CHECKS, "payload_sha256"));
});

it("verifies the anchored, witnessed worked example in docs/ztt.md, and k as the verifier picks it", async () => {
  const result = await verifyZtt(anchored.bundle, anchored.keys, { payload: anchored.payload, witnesses: anchored.witnesses });
  expect(outcome(result)).toEqual(passing(...WINDOW_CHECKS, "payload_sha256", "anchor_receipt", "anchor_inclusion", "witnessed_time"));
  expect(result.witnessed_unix_s).toBe(1795645802);
  // Only one witness trusted: k = 1 and W is the first cosignature, 22:30:01Z.
  expect((await verifyZtt(anchored.bundle, anchored.keys, { witnesses: anchored.witnesses.slice(0, 1) })).witnessed_unix_s).toBe(1795645801);
});
