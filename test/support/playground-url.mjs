// The URL a `temporalc playground` process prints once it listens, for the CLI's and the packaging tests and the
// playground benchmark. Plain JavaScript (typed by playground-url.d.mts) so that bench/*.mjs, which Node runs
// untranspiled, shares it with the TypeScript tests.

/** Resolves with the URL once the process prints it; rejects when the process exits first. */
export function playgroundUrl(child) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (match !== null) resolve(match[0]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
