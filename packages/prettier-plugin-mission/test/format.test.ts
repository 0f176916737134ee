import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import plugin, { languages, options, parsers, printers } from "../src/index.js";
import { format } from "./helpers.js";

describe("the plugin module", () => {
  it("exports what Prettier loads: languages, parsers, printers, options, and the same as the default export", () => {
    expect(plugin).toEqual({ languages, parsers, printers, options });
    expect(languages).toEqual([expect.objectContaining({ name: "Mission", extensions: [".mission"], parsers: ["mission"] })]);
    expect(Object.keys(parsers!)).toEqual(["mission"]);
    expect(Object.keys(printers!)).toEqual([parsers!["mission"]!.astFormat]);
  });

  it("Prettier infers the parser from the .mission extension", async () => {
    expect((await prettier.getFileInfo("dir/a.mission", { plugins: [plugin] })).inferredParser).toBe("mission");
    expect(await prettier.format("mission a{}", { filepath: "a.mission", plugins: [plugin] })).toBe("mission a {}\n");
  });
});

/** [what, input, output] */
type Case = [string, string, string];

function cases(list: Case[]) {
  for (const [what, input, output] of list) {
    it(what, async () => {
      expect(await format(input)).toBe(output);
      expect(await format(output)).toBe(output);
    });
  }
}

describe("layout", () => {
  cases([
    ["an empty file stays empty", "", ""],
    ["a file of whitespace becomes empty", " \n\t\n\n", ""],
    [
      "directives first, one a line, then a blank line before each mission",
      "@temporal v4 @anchor Z1 mission a {} mission b {}",
      "@temporal v4\n@anchor Z1\n\nmission a {}\n\nmission b {}\n",
    ],
    ["directives keep their order and have no blank lines between them", "@anchor Z1\n\n\n@temporal v4\n", "@anchor Z1\n@temporal v4\n"],
    ["a directive after a mission stays where it is", "mission a {}\n@anchor Z1\nmission b {}", "mission a {}\n\n@anchor Z1\n\nmission b {}\n"],
    [
      "two-space indent, one item and one statement a line",
      "mission a { require carbon < 1 on ALLOW { execute x execute y } }",
      "mission a {\n  require carbon < 1\n  on ALLOW {\n    execute x\n    execute y\n  }\n}\n",
    ],
    ["empty blocks are {}", "mission a {\n\n}\nmission b { on DENY {\n\n} }", "mission a {}\n\nmission b {\n  on DENY {}\n}\n"],
    [
      "spacing in windows, comparisons and anchors",
      "mission a{require phase[ 300 ,30 ]require carbon<=250 require hs_bloch>0.9 on DENY{anchor TSAE->clockchain}}",
      "mission a {\n  require phase [300, 30]\n  require carbon <= 250\n  require hs_bloch > 0.9\n  on DENY {\n    anchor TSAE -> clockchain\n  }\n}\n",
    ],
    ["numbers as written", "mission a { require phase [0.50, 007] require carbon < 12.50 }", "mission a {\n  require phase [0.50, 007]\n  require carbon < 12.50\n}\n"],
    [
      "an anchor with a quorum, its number as written",
      "mission a{on ALLOW{anchor TSAE->clockchain   quorum\n03 execute quorum}}",
      "mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain quorum 03\n    execute quorum\n  }\n}\n",
    ],
    [
      "an anchor signed ZTT, with a quorum",
      "mission a{require phase[300,30]on ALLOW{anchor TSAE->clockchain  signed\nZTT quorum 3 execute signed}}",
      "mission a {\n  require phase [300, 30]\n  on ALLOW {\n    anchor TSAE -> clockchain signed ZTT quorum 3\n    execute signed\n  }\n}\n",
    ],
    [
      "anchor clauses repeated or out of order stay as written (the checker reports them)",
      "mission a{on ALLOW{anchor TSAE->clockchain quorum 2 signed ZTT quorum 3 signed ZTT}}",
      "mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain quorum 2 signed ZTT quorum 3 signed ZTT\n  }\n}\n",
    ],
    [
      "one blank line kept between items, at most one",
      "mission a {\n  require carbon < 1\n\n\n\n  require carbon < 2\n  on ALLOW {\n    execute x\n\n    execute y\n  }\n}\n",
      "mission a {\n  require carbon < 1\n\n  require carbon < 2\n  on ALLOW {\n    execute x\n\n    execute y\n  }\n}\n",
    ],
    ["no blank line after { or before }", "mission a {\n\n  require carbon < 1\n\n}\n", "mission a {\n  require carbon < 1\n}\n"],
    ["a byte order mark is kept", "\ufeffmission a {}", "\ufeffmission a {}\n"],
  ]);

  it("ignores tabWidth, useTabs and printWidth: one format everywhere", async () => {
    const input = "mission a_rather_long_name { require phase [300, 30] on ALLOW { execute a_rather_long_task_name } }";
    const expected = await format(input);
    expect(await format(input, { tabWidth: 8, useTabs: true, printWidth: 20 })).toBe(expected);
    expect(expected).toBe("mission a_rather_long_name {\n  require phase [300, 30]\n  on ALLOW {\n    execute a_rather_long_task_name\n  }\n}\n");
  });

  it("honours endOfLine, inside block comments too", async () => {
    const input = "/* a\n   b */\nmission a { on ALLOW { execute x } }\n";
    expect(await format(input, { endOfLine: "crlf" })).toBe("/* a\r\n   b */\r\nmission a {\r\n  on ALLOW {\r\n    execute x\r\n  }\r\n}\r\n");
    expect(await format(input.replaceAll("\n", "\r\n"), { endOfLine: "auto" })).toBe(await format(input, { endOfLine: "crlf" }));
    expect(await format(input.replaceAll("\n", "\r\n"))).toBe(await format(input));
  });
});

describe("comments", () => {
  cases([
    ["before the first directive and after the last mission", "// head\n@temporal v4\nmission a {}\n// tail\n", "// head\n@temporal v4\n\nmission a {}\n// tail\n"],
    ["a blank line after a comment is kept", "// head\n\n\n@temporal v4\n", "// head\n\n@temporal v4\n"],
    ["a blank line before a comment at the end is kept", "mission a {}\n\n\n// tail\n", "mission a {}\n\n// tail\n"],
    ["a comment-only file", "  // just this  \n", "// just this\n"],
    [
      "at the end of a line: trailing the item, one space before it",
      "mission a {\n  require phase [300, 30]      // wraps\n  on ALLOW { execute x }    /* then */\n}",
      "mission a {\n  require phase [300, 30] // wraps\n  on ALLOW {\n    execute x\n  } /* then */\n}\n",
    ],
    [
      "on a line of its own: before the next item",
      "mission a {\n// first\n    require carbon < 1\n        // second\n  on ALLOW {\n      // third\n  execute x }\n}",
      "mission a {\n  // first\n  require carbon < 1\n  // second\n  on ALLOW {\n    // third\n    execute x\n  }\n}\n",
    ],
    [
      "at the end of a block",
      "mission a {\n  on ALLOW {\n    execute x\n      // after x\n  }\n  // after the handler\n}",
      "mission a {\n  on ALLOW {\n    execute x\n    // after x\n  }\n  // after the handler\n}\n",
    ],
    ["after an opening brace", "mission a { // a\n  on ALLOW { /* b */ execute x }\n}", "mission a { // a\n  on ALLOW { /* b */\n    execute x\n  }\n}\n"],
    [
      "in empty blocks",
      "mission a {\n  on DENY { /* nothing */ }\n  on ALLOW {   // nothing\n  }\n}\nmission b { /* empty */ /* really */ }",
      "mission a {\n  on DENY { /* nothing */ }\n  on ALLOW { // nothing\n  }\n}\n\nmission b { /* empty */ /* really */ }\n",
    ],
    ["inside a window", "mission a { require phase [ /* start */ 45 , 90 /* end */ ] }", "mission a {\n  require phase [/* start */ 45, 90 /* end */]\n}\n"],
    [
      "around a quorum",
      "mission a { on DENY { anchor TSAE -> clockchain/* a */quorum/* b */3 // c\n} }",
      "mission a {\n  on DENY {\n    anchor TSAE -> clockchain /* a */ quorum /* b */ 3 // c\n  }\n}\n",
    ],
    [
      "around signed ZTT",
      "mission a { on ALLOW { anchor TSAE -> clockchain/* a */signed/* b */ZTT/* c */quorum 2 quorum/* d */3 } }",
      "mission a {\n  on ALLOW {\n    anchor TSAE -> clockchain /* a */ signed /* b */ ZTT /* c */ quorum 2 quorum /* d */ 3\n  }\n}\n",
    ],
    ["before the comma of a window", "mission a { require phase [45/* a */,/* b */90] }", "mission a {\n  require phase [45 /* a */, /* b */ 90]\n}\n"],
    [
      "between any two tokens",
      "@temporal/*1*/v4\n@anchor/*2*/Z1\nmission/*3*/a/*4*/{require/*5*/carbon/*6*/</*7*/1 on/*8*/ALLOW/*9*/{execute/*10*/x anchor/*11*/TSAE/*12*/->/*13*/clockchain}}",
      "@temporal /*1*/ v4\n@anchor /*2*/ Z1\n\nmission /*3*/ a /*4*/ {\n  require /*5*/ carbon /*6*/ < /*7*/ 1\n  on /*8*/ ALLOW /*9*/ {\n    execute /*10*/ x\n    anchor /*11*/ TSAE /*12*/ -> /*13*/ clockchain\n  }\n}\n",
    ],
    [
      "a line comment inside an item ends the line; the item goes on indented",
      "mission a {\n  require phase [300, // from 20:00\n  30] // to 02:00\n}",
      "mission a {\n  require phase [300, // from 20:00\n    30] // to 02:00\n}\n",
    ],
    ["a block comment before an item on its line stays there", "mission a {\n  /* why */ require carbon < 1\n}", "mission a {\n  /* why */ require carbon < 1\n}\n"],
    [
      "an item after a trailing comment goes on its own line",
      "mission a { on ALLOW { execute x /* x */ execute y } }",
      "mission a {\n  on ALLOW {\n    execute x /* x */\n    execute y\n  }\n}\n",
    ],
    [
      "a multi-line block comment keeps its lines as written",
      "mission a {\n        /* one\n           two\n   three */\n  require carbon < 1\n}",
      "mission a {\n  /* one\n           two\n   three */\n  require carbon < 1\n}\n",
    ],
    ["trailing whitespace of a line comment is dropped", "// a   \t\nmission a {}", "// a\nmission a {}\n"],
    ["a line comment between mission and name", "mission // note\n  a {}", "mission // note\n  a {}\n"],
  ]);
});

describe("prettier-ignore", () => {
  cases([
    ["before a directive", "// prettier-ignore\n@temporal     v4\n@anchor   Z1", "// prettier-ignore\n@temporal     v4\n@anchor Z1\n"],
    ["before a mission", "// prettier-ignore\nmission   a {on ALLOW{execute   x}}\nmission   b {}", "// prettier-ignore\nmission   a {on ALLOW{execute   x}}\n\nmission b {}\n"],
    [
      "before a requirement",
      "mission a {\n  // prettier-ignore\n  require phase [ 1 ,2 ]\n  require phase [ 1 ,2 ]\n}",
      "mission a {\n  // prettier-ignore\n  require phase [ 1 ,2 ]\n  require phase [1, 2]\n}\n",
    ],
    [
      "before a handler",
      "mission a {\n  // prettier-ignore\n  on ALLOW {execute x}\n  on DENY {execute x}\n}",
      "mission a {\n  // prettier-ignore\n  on ALLOW {execute x}\n  on DENY {\n    execute x\n  }\n}\n",
    ],
    [
      "before a statement",
      "mission a { on ALLOW {\n  // prettier-ignore\n  execute     x\n  execute     y } }",
      "mission a {\n  on ALLOW {\n    // prettier-ignore\n    execute     x\n    execute y\n  }\n}\n",
    ],
    ["as a block comment", "mission a {\n  /* prettier-ignore */ require phase [ 1 ,2 ]\n}", "mission a {\n  /* prettier-ignore */ require phase [ 1 ,2 ]\n}\n"],
    [
      "comments inside an ignored item are kept with it",
      "// prettier-ignore\nmission a { /* x */ on ALLOW { execute y // y\n} }",
      "// prettier-ignore\nmission a { /* x */ on ALLOW { execute y // y\n} }\n",
    ],
    [
      "after the opening brace, for the block's first item",
      "mission a { // prettier-ignore\n  require phase [ 1 ,2 ]\n  require phase [ 1 ,2 ]\n}",
      "mission a { // prettier-ignore\n  require phase [ 1 ,2 ]\n  require phase [1, 2]\n}\n",
    ],
    [
      "as a block comment after the opening brace, on the first item's line",
      "mission a { on ALLOW { /* prettier-ignore */ execute     x\n execute     y } }",
      "mission a {\n  on ALLOW { /* prettier-ignore */\n    execute     x\n    execute y\n  }\n}\n",
    ],
    [
      "after the opening brace, with other comments before the first item",
      "mission a { /* prettier-ignore */ // why\n  // more\n  on ALLOW {execute x}\n}",
      "mission a { /* prettier-ignore */ // why\n  // more\n  on ALLOW {execute x}\n}\n",
    ],
    [
      "not at the end of the previous item's line",
      "mission a {\n  require carbon < 1 // prettier-ignore\n  require   carbon < 2\n}",
      "mission a {\n  require carbon < 1 // prettier-ignore\n  require carbon < 2\n}\n",
    ],
  ]);
});
