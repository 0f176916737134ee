/**
 * The examples menu: the repository's examples/*.mission, read at build
 * time by Vite, so the playground always offers exactly what the repository
 * ships (one source of truth, nothing copied by hand).
 */
export interface Example {
  /** The file's base name without `.mission`, e.g. "nightly-backup". */
  name: string;
  source: string;
}

const files = import.meta.glob<string>("../../../examples/*.mission", { query: "?raw", import: "default", eager: true });

export const EXAMPLES: readonly Example[] = Object.entries(files)
  .map(([path, source]) => ({ name: path.slice(path.lastIndexOf("/") + 1).replace(/\.mission$/, ""), source }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** What a first visit (or a broken share link) shows. */
export const DEFAULT_EXAMPLE: Example = EXAMPLES.find((example) => example.name === "nightly-backup") ?? EXAMPLES[0] ?? { name: "empty", source: "" };
