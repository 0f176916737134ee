/**
 * The range the editor underlines for a diagnostic. The language service gives
 * some problems no width: a syntax error at the end of the file (`mission m {`
 * then nothing: M102 "found the end of the file"), a missing directive at
 * offset 0. A zero-width mark is a dot that is easy to miss (and at the end of
 * a file, past the last character, nothing a pointer can hover), so such a
 * diagnostic underlines the last character before it that is not white space
 * (what the parser read last), or else the next character.
 */
export function visibleRange(from: number, to: number, text: string): { from: number; to: number } {
  const start = Math.min(Math.max(0, from), text.length);
  const end = Math.max(start, Math.min(to, text.length));
  if (end > start) return { from: start, to: end };
  for (let i = start - 1; i >= 0; i--) {
    if (!/\s/.test(text[i]!)) return { from: i, to: i + 1 };
  }
  return start < text.length ? { from: start, to: start + 1 } : { from: start, to: start };
}
