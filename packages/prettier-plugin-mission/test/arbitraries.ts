import { print } from "@temporal/compiler";
import fc from "fast-check";
import { missionFileArb, validMissionFileArb } from "../../compiler/test/arbitraries.js";

/**
 * Syntactically valid mission files written the way people write them: a
 * random tree printed canonically by the compiler, then re-spaced token by
 * token with random whitespace (tabs, CRLF, blank lines, Unicode spaces) and
 * line and block comments in every gap, before the first token and after the
 * last, and now and then a `prettier-ignore` comment before an item.
 */

/**
 * The canonical printer separates every word with whitespace, so splitting it
 * back into tokens is easy; and it starts every item on a line of its own, so
 * the first token of a line (other than `}`) starts an item.
 */
function tokens(canonical: string): Array<{ token: string; startsItem: boolean }> {
  return canonical.split("\n").flatMap((line) => (line.match(/[[\]{},]|[^\s[\]{},]+/gu) ?? []).map((token, i) => ({ token, startsItem: i === 0 && token !== "}" })));
}

const PUNCTUATION = new Set(["[", "]", "{", "}", ","]);

const wordArb = fc.stringMatching(/^[A-Za-z0-9_.*/#@é→:-]{1,8}$/u);
const commentTextArb = fc.array(wordArb, { maxLength: 5 }).map((words) => words.join(" "));

/** A line comment, with the line break that ends it. */
const lineCommentArb = fc
  .tuple(commentTextArb, fc.constantFrom("", " ", "  ", "\t"), fc.constantFrom("\n", "\n", "\r\n"))
  .map(([text, trailing, lineBreak]) => `//${text === "" ? "" : ` ${text}`}${trailing}${lineBreak}`);

const blockCommentArb = fc
  .array(
    commentTextArb.filter((line) => line !== ""),
    { minLength: 1, maxLength: 3 },
  )
  .map((lines) => `/* ${lines.join("\n   ")} */`)
  // `*/` inside the text would end the comment early.
  .filter((comment) => !comment.slice(2, -2).includes("*/") && !comment.startsWith("/*/"));

const whitespaceArb = fc.constantFrom(" ", " ", " ", "  ", "\t", "\n", "\n", "\n  ", "\r\n", "\n\n", "\n\n\n", "\u00a0", "\u3000", "\v", "\f");

const pieceArb: fc.Arbitrary<string> = fc.oneof({ weight: 6, arbitrary: whitespaceArb }, { weight: 1, arbitrary: lineCommentArb }, { weight: 2, arbitrary: blockCommentArb });

/** What goes between two tokens: whitespace and comments, or nothing (kept only next to punctuation). */
const separatorArb = fc.array(pieceArb, { maxLength: 4 }).map((pieces) => pieces.join(""));
const whitespaceOnlyArb = fc.array(whitespaceArb, { maxLength: 3 }).map((pieces) => pieces.join(""));

/** Now and then, an item is kept as written. */
const ignoreArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.constantFrom("// prettier-ignore\n", "\n  // prettier-ignore\n  ", "/* prettier-ignore */ ") },
);

function sourceArb(separator: fc.Arbitrary<string>, ignore: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .oneof(missionFileArb, validMissionFileArb)
    .map((ast) => tokens(print(ast)))
    .chain((words) =>
      fc.tuple(
        fc.constant(words),
        fc.array(separator, { minLength: words.length + 1, maxLength: words.length + 1 }),
        fc.array(ignore, { minLength: words.length, maxLength: words.length }),
        fc.boolean(),
      ),
    )
    .map(([words, separators, ignores, bom]) => {
      let out = bom ? "\ufeff" : "";
      words.forEach(({ token, startsItem }, i) => {
        const previous = words[i - 1]?.token;
        const needsSeparation = previous !== undefined && !PUNCTUATION.has(previous) && !PUNCTUATION.has(token);
        let separator = separators[i]!;
        if (startsItem && ignores[i] !== "") separator = `${separator}\n${ignores[i]!}`;
        out += (separator === "" && needsSeparation ? " " : separator) + token;
      });
      out += separators[words.length]!;
      return out;
    });
}

export const messySourceArb = sourceArb(separatorArb, ignoreArb);

/** The same, with whitespace only: no comments. */
export const respacedSourceArb = sourceArb(whitespaceOnlyArb, fc.constant(""));
