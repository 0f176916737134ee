/**
 * `@temporal/witness`: a C2SP tlog-witness (`temporal-witness`) and the
 * pieces a log needs to talk to one: cosignature/v1 and the add-checkpoint
 * client.
 */
export {
  COSIGNATURE_V1_TYPE,
  cosignatureVerifier,
  cosignedMessage,
  cosignerKeyId,
  createCosigner,
  formatCosignerVerifierKey,
  readCosignature,
  type Cosignature,
  type Cosigner,
} from "./cosignature.js";
export {
  EMPTY_TREE_ROOT,
  MAX_PROOF_LINES,
  Witness,
  formatAddCheckpointRequest,
  parseAddCheckpointRequest,
  type AddCheckpointOutcome,
  type AddCheckpointRequest,
  type Evidence,
  type LatestCheckpoint,
  type WitnessOptions,
  type WitnessStateStore,
} from "./add-checkpoint.js";
export { submitCheckpoint, type SubmitOptions, type SubmitOutcome } from "./client.js";
export { DEFAULT_MAX_BODY_BYTES, loadWitnessConfig, type WitnessConfig } from "./config.js";
export { FileStateStore } from "./state-store.js";
export { createWitnessServer, type WitnessServerOptions } from "./server.js";
export { createWitnessKey, loadWitnessKey } from "./witness-key.js";
