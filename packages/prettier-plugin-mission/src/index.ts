import type { Plugin, SupportLanguage, SupportOptions } from "prettier";
import type { MissionNodeAny } from "./ast.js";
import { AST_FORMAT, missionParser } from "./parser.js";
import { missionPrinter } from "./printer.js";

/**
 * prettier-plugin-mission: Prettier 3 support for `.mission` files.
 *
 *   prettier --plugin prettier-plugin-mission --write "**\/*.mission"
 *
 * or `"plugins": ["prettier-plugin-mission"]` in a Prettier configuration.
 * The format is described in docs/format.md.
 */

export const languages: SupportLanguage[] = [
  {
    name: "Mission",
    parsers: ["mission"],
    extensions: [".mission"],
    vscodeLanguageIds: ["mission"],
  },
];

export const parsers: Plugin<MissionNodeAny>["parsers"] = { mission: missionParser };

export const printers: Plugin<MissionNodeAny>["printers"] = { [AST_FORMAT]: missionPrinter };

/** The format has no options: one file, one layout. */
export const options: SupportOptions = {};

export { MissionSyntaxError } from "./parser.js";

const plugin: Plugin<MissionNodeAny> = { languages, parsers, printers, options };
export default plugin;
