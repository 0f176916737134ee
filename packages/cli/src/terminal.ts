/**
 * Colour on a terminal only: `NO_COLOR` (any non-empty value) turns it off,
 * `FORCE_COLOR` (other than 0) turns it on even when piped.
 */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "") return force !== "0";
  const noColor = env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return false;
  return stream.isTTY === true;
}
