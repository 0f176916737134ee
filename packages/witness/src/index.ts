/**
 * `@temporal/witness`: a C2SP tlog-witness (`temporal-witness`). The pieces
 * a log needs to talk to one, cosignature/v1 and the add-checkpoint client,
 * live in the SDK's platform-free core (the log's quorum code uses them, and
 * the SDK cannot depend on this package); they are re-exported here.
 */
export {
  COSIGNATURE_V1_TYPE,
  MAX_PROOF_LINES,
  formatAddCheckpointRequest,
  submitCheckpoint,
  type AddCheckpointRequest,
  type SubmitOptions,
  type SubmitOutcome,
  cosignatureVerifier,
  cosignedMessage,
  cosignerKeyId,
  createCosigner,
  formatCosignerVerifierKey,
  readCosignature,
  type Cosignature,
  type Cosigner,
} from "@temporal/agent-sdk";
export {
  EMPTY_TREE_ROOT,
  Witness,
  parseAddCheckpointRequest,
  type AddCheckpointOutcome,
  type Evidence,
  type LatestCheckpoint,
  type WitnessOptions,
  type WitnessStateStore,
} from "./add-checkpoint.js";
export { DEFAULT_MAX_BODY_BYTES, loadWitnessConfig, type WitnessConfig } from "./config.js";
export { KnownLogs, type LogKeys } from "./known-logs.js";
export { FileStateStore } from "./state-store.js";
export { createWitnessServer, type WitnessServerOptions } from "./server.js";
export { createWitnessKey, loadWitnessKey } from "./witness-key.js";
