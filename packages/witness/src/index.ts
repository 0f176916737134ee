/**
 * `@temporal/witness`: a C2SP tlog-witness (`temporal-witness`) and the
 * pieces a log needs to talk to one: cosignature/v1 and the add-checkpoint
 * client.
 */
export { COSIGNATURE_V1_TYPE, cosignatureVerifier, cosignedMessage, cosignerKeyId, createCosigner, formatCosignerVerifierKey, readCosignature, type Cosignature, type Cosigner } from "./cosignature.js";
export { WitnessError, type WitnessErrorCode } from "./errors.js";
