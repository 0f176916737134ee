/**
 * The log's side of add-checkpoint: submits a checkpoint with its
 * consistency proof to a witness and reads the answer the protocol allows:
 * cosignature lines (200), the witness's size (409), or a refusal.
 */

import { TemporalError, parseNote, type NoteSignature } from "@temporal/agent-sdk";
import { formatAddCheckpointRequest, type AddCheckpointRequest } from "./add-checkpoint.js";

export type SubmitOutcome =
  /** The witness's signature lines, parsed but not verified: open the checkpoint with `cosignatureVerifier`s of the witnesses you trust. */
  | { readonly kind: "cosigned"; readonly signatures: readonly NoteSignature[] }
  /** The witness's latest cosigned size is not `oldSize`: resubmit with a proof from `size` (or, if the sizes are equal, the witness holds another root: a fork). */
  | { readonly kind: "conflict"; readonly size: number }
  /** 400 malformed, 403 not signed by a key the witness trusts, 404 log unknown to the witness, 422 bad consistency proof, or another status. */
  | { readonly kind: "refused"; readonly status: number; readonly message: string };

export interface SubmitOptions {
  readonly signal?: AbortSignal;
}

const SIZE_BODY = /^(0|[1-9][0-9]*)\n$/;

/**
 * POSTs `request` to `<submissionPrefix>/add-checkpoint`. Throws
 * `INVALID_SUBMISSION` for a bad prefix or request, `WITNESS_UNREACHABLE`
 * when no answer arrives, `INVALID_WITNESS_REPLY` for an answer the
 * protocol does not allow.
 */
export async function submitCheckpoint(submissionPrefix: string | URL, request: AddCheckpointRequest, options: SubmitOptions = {}): Promise<SubmitOutcome> {
  const url = addCheckpointUrl(submissionPrefix);
  const body = formatAddCheckpointRequest(request);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: "POST", body, headers: { "Content-Type": "text/plain; charset=utf-8" }, signal: options.signal ?? null });
    text = await response.text();
  } catch (error) {
    throw new TemporalError("WITNESS_UNREACHABLE", `the witness at ${url.href} did not answer: ${(error as Error).message}`, { cause: error });
  }
  const bad = (problem: string) => new TemporalError("INVALID_WITNESS_REPLY", `the witness at ${url.href} answered ${response.status} ${problem}`);
  if (response.status === 200) {
    try {
      // Appended to the checkpoint's text, the lines make a note: its strict parser reads them.
      return { kind: "cosigned", signatures: parseNote(`${parseNote(request.note).text}\n${text}`).signatures };
    } catch (error) {
      throw bad(`with a body that is not signature lines: ${(error as Error).message}`);
    }
  }
  if (response.status === 409) {
    const size = SIZE_BODY.exec(text);
    const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "text/x.tlog.size" || size === null) throw bad("without a text/x.tlog.size body holding its tree size");
    return { kind: "conflict", size: Number(size[1]) };
  }
  return { kind: "refused", status: response.status, message: text.trim() };
}

function addCheckpointUrl(prefix: string | URL): URL {
  let url: URL;
  try {
    url = new URL(prefix);
  } catch {
    throw new TemporalError("INVALID_SUBMISSION", `the witness's submission prefix ${JSON.stringify(String(prefix))} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TemporalError("INVALID_SUBMISSION", `the witness's submission prefix ${url.href} is not http(s)`);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/add-checkpoint`;
  return url;
}
