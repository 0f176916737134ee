// Types for what the tests import from generate-diagrams.mjs (not its whole surface).

/** Where the diagrams page is written: grammar/diagrams.html at the repository's root. */
export const OUTPUT: string;

/** The complete, self-contained diagrams page, rendered from the built parser. */
export function renderDiagrams(): string;
