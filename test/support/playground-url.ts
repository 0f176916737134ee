import type { ChildProcess } from "node:child_process";

/** The URL a `temporalc playground` process prints once it listens; rejects when the process exits first. */
export function playgroundUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      out += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (match !== null) resolve(match[0]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
