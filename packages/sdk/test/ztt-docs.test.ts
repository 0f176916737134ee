import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { verifyZtt } from "../src/ztt/index.js";

it("verifies the worked example in docs/ztt.md", async () => {
  const markdown = readFileSync(new URL("../../../docs/ztt.md", import.meta.url), "utf8");
  const block = /```json\n([\s\S]*?)\n```/.exec(markdown)?.[1];
  const example = JSON.parse(block ?? "null");
  const result = await verifyZtt(example.bundle, example.keys, { payload: example.payload });
  expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
    ["certificate_signature", true],
    ["certificate_interval", true],
    ["ephemeral_signature", true],
    ["signing_context", true],
    ["payload_sha256", true],
  ]);
});
