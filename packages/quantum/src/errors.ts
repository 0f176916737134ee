/** Stable codes of every error the package throws on bad input or impossible requests. */
export type QuantumErrorCode = "INVALID_QUBO" | "INVALID_OPTION" | "INVALID_CIRCUIT" | "TOO_LARGE" | "UNKNOWN_BACKEND";

/** The package's one error class: `code` is stable (switch on it), `message` says what to fix. */
export class QuantumError extends Error {
  readonly code: QuantumErrorCode;

  constructor(code: QuantumErrorCode, message: string) {
    super(message);
    this.name = "QuantumError";
    this.code = code;
  }
}
