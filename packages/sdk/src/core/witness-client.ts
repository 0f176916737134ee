/**
 * The log's side of add-checkpoint: submits a checkpoint with its
 * consistency proof to a witness and reads the answer the protocol allows:
 * cosignature lines (200), the witness's size (409), or a refusal.
 */

import { bytesToBase64 } from "./encoding.js";
import { TemporalError } from "./errors.js";
import { parseNote, type NoteSignature } from "./signed-note.js";

/** The spec forbids clients to send more; a proof between trees of up to 2^63 leaves fits. */
export const MAX_PROOF_LINES = 63;

export interface AddCheckpointRequest {
  /** The size of the latest checkpoint the client believes this witness cosigned for the log (0 if none). */
  readonly oldSize: number;
  /** RFC 6962 consistency proof from `oldSize` to the checkpoint's size: 32-byte hashes, empty when `oldSize` is 0. */
  readonly proof: readonly Uint8Array[];
  /** The log's signed checkpoint note. */
  readonly note: string;
}

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

/** The request body: `old <size>`, one base64 hash per line, a blank line, then the note. Throws `INVALID_SUBMISSION`. */
export function formatAddCheckpointRequest(request: AddCheckpointRequest): string {
  const { oldSize, proof, note } = request;
  const bad = (problem: string): TemporalError => new TemporalError("INVALID_SUBMISSION", `add-checkpoint request ${problem}`);
  if (!Number.isSafeInteger(oldSize) || oldSize < 0) throw bad(`old size ${String(oldSize)} is not a non-negative safe integer`);
  if (!Array.isArray(proof) || proof.length > MAX_PROOF_LINES) throw bad(`proof is not an array of at most ${MAX_PROOF_LINES} hashes`);
  proof.forEach((hash, i) => {
    if (!(hash instanceof Uint8Array) || hash.length !== 32) throw bad(`proof hash ${i + 1} is not 32 bytes`);
  });
  if (typeof note !== "string" || !note.endsWith("\n")) throw bad("note is not a signed note (text ending in a newline)");
  return [`old ${oldSize}`, ...proof.map(bytesToBase64)].map((line) => `${line}\n`).join("") + `\n${note}`;
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
