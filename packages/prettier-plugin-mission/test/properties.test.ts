import { parse, print } from "@temporal/compiler";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messySourceArb, respacedSourceArb } from "./arbitraries.js";
import { commentTexts, format, formattableSources, layoutProblems, meaning } from "./helpers.js";

/**
 * What formatting must never do, checked on every fixture and on generated
 * files: change what the file means, lose or reorder a comment, or give a
 * different result when run again.
 */

async function checkInvariants(source: string): Promise<string> {
  const once = await format(source);
  expect(await format(once), "formatting twice gives the same text as formatting once").toBe(once);
  expect(meaning(once), "the tree is the same before and after").toEqual(meaning(source));
  expect(commentTexts(once), "every comment is kept, in order").toEqual(commentTexts(source));
  // An item kept as written by prettier-ignore can have any layout inside.
  if (!source.includes("prettier-ignore")) expect(layoutProblems(once)).toEqual([]);
  return once;
}

describe("on every fixture", () => {
  for (const { name, source } of formattableSources()) {
    it(`${name}: idempotent, same tree, same comments`, async () => {
      await checkInvariants(source);
    });
  }
});

describe("on generated files", () => {
  it("idempotent, same tree, same comments, whatever the spacing and comments (300 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(messySourceArb, async (source) => {
        await checkInvariants(source);
      }),
      { numRuns: 300 },
    );
    // About 20 s on a loaded 2-core machine: formatting 300 files through Prettier, twice each.
  }, 120_000);

  it("the format does not depend on how the input was spaced", async () => {
    // Without comments, any spelling of a tree formats to the compiler's canonical print of it, but for
    // the blank lines the format keeps inside missions, and `mission a {}` where the compiler prints a
    // mission without items as `mission a {` and `}` on two lines.
    const withoutBlankLines = (text: string) => text.replace(/^\ufeff/u, "").replaceAll(/\n\n+/gu, "\n");
    await fc.assert(
      fc.asyncProperty(respacedSourceArb, async (source) => {
        const canonical = print(parse(source).ast).replaceAll(/^(mission \w+ \{)\n\}$/gmu, "$1}");
        expect(withoutBlankLines(await format(source))).toBe(withoutBlankLines(canonical));
      }),
      { numRuns: 200 },
    );
  });
});
