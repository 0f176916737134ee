/**
 * `@temporal/language-service`: the mission language's editor features as
 * platform-free functions (no `node:` module; runs in a Web Worker too),
 * shared by the language server, the CLI and the playground. Positions and
 * results are LSP types (`vscode-languageserver-types`); documents are
 * `vscode-languageserver-textdocument`'s `TextDocument`, re-exported here.
 */
export { createLanguageService, type LanguageService, type LanguageServiceOptions } from "./service.js";
export { DIAGNOSTICS_DOCS_URL } from "@temporal/compiler";
export { RenameError } from "./navigation.js";
export { SEMANTIC_TOKENS_LEGEND } from "./semantic-tokens.js";
export { TextDocument } from "vscode-languageserver-textdocument";
export { arcsContain, missionDials, type DialArc, type DialOptions, type DialTransition, type DstNote, type FileDial, type HourRing, type MissionDial } from "./dial.js";
export { dialSvg, type DialSvgOptions } from "./dial-svg.js";
export { dialClockText, timeUntilText } from "./dial-text.js";
export { viewerTimeZone } from "./clock.js";
