/** Stable codes of the errors this package throws; the message says what is wrong and what to fix. */
export type WitnessErrorCode =
  // the witness's config file or command line
  | "INVALID_WITNESS_CONFIG"
  // the witness's key file: missing, unreadable, not an Ed25519 PKCS#8 key, or already there when creating one
  | "INVALID_WITNESS_KEY"
  // a cosignature/v1 value that cannot be made or read
  | "INVALID_COSIGNATURE"
  // the state directory: unreadable or corrupt state files
  | "WITNESS_STATE_FAILED"
  // the client: an unusable submission URL, request, or a reply that is not what the protocol allows
  | "INVALID_SUBMISSION"
  | "WITNESS_UNREACHABLE"
  | "INVALID_WITNESS_REPLY";

export class WitnessError extends Error {
  readonly code: WitnessErrorCode;
  constructor(code: WitnessErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = "WitnessError";
  }
}
