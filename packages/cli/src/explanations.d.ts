/** docs/diagnostics.md's sections by code, embedded by scripts/bundle.mjs at build time. */
declare module "virtual:diagnostic-explanations" {
  const explanations: Record<string, { title: string; severity: string; text: string }>;
  export default explanations;
}
