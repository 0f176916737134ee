/**
 * `@temporal/agent-sdk/core`: the pure, browser-safe part of the SDK. Nothing
 * here imports `node:` modules or touches `process` or `Buffer`.
 */
export { KERNEL_VERSION, contextAt, now, type ContextOptions, type NowOptions } from "./phase.js";
export { allow, enforce, nextOpen } from "./window.js";
export { allowInTimeZone, clockTicks, contextInTimeZone, firstOffsetChange, nextOpenInTimeZone } from "./time-zone.js";
export { diff } from "./twatch.js";
export { TPE_CYCLES, tpeVector, type TpeOptions } from "./tpe.js";
export { allowResult, coreState, tpeVectorResult } from "./service-results.js";
export { DAY_PARTS, temporalPrompt } from "./temporal-prompt.js";
export { qualityDecision, type QualityInput } from "./quality-gate.js";
export { MAX_INTENSITY, type CarbonSeries } from "./carbon-series.js";
export { carbonRecommendation, constantCarbonSeries, parseCarbonForecast, type CarbonOptions, type ParseForecastOptions } from "./carbon.js";
export { scheduleTasks, type ScheduleOptions } from "./schedule.js";
export { parseIsoInstant, requireIsoInstant } from "./iso-instant.js";
export { parseZone, utcOffsetMinutes, zoneFromTimeZone, zoneFromUtcOffset } from "./zones.js";
export { WINDOW_TEXT_RULE, ZONE_TEXT_RULE, parseWindowText, parseZoneText } from "./window-text.js";
export { TICKS_PER_DAY, TICKS_PER_DEGREE, TICKS_PER_ZONE, ZONE_COUNT } from "./units.js";
export { canonicalJson } from "./canonical-json.js";
export { jsonSyntaxProblem, type JsonSyntaxProblem } from "./json-syntax.js";
export { sha256Hex } from "./sha256.js";
export { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from "./encoding.js";
export { assertTsaeRequest, createTsaeRequest, type TsaeAction } from "./tsae.js";
export { receiptHash, verifyReceipt } from "./receipt.js";
export { checkpointBody, isSignedCheckpoint, signedCheckpointHash, signedCheckpointOf, verifySignedCheckpoint } from "./signed-checkpoint.js";
export { verifyAnchorProof, verifyCheckpointByAnyKey, verifyInclusion, type LogKeyInput, type LogKeySetInput } from "./anchor-proof.js";
export { checkReceiptAndProof, type ReceiptCheck, type ReceiptCheckName } from "./receipt-checks.js";
export { verifyConsistencyProof } from "./consistency-proof.js";
export { verifyConsistency } from "./merkle.js";
export type { ItemSeq } from "./hash-list.js";
export { challengeIssues, verifyChallenge } from "./challenge.js";
export { VerifyingKey, importVerifyingKey, type PublicKeyInput } from "./verifying-key.js";
export {
  ED25519_SIGNATURE_TYPE,
  ed25519NoteSigner,
  formatVerifierKey,
  isNoteKeyName,
  isVerifierKey,
  noteKeyId,
  noteKeyIdHex,
  noteVerifier,
  parseVerifierKey,
  type Ed25519Sign,
  type NoteSigner,
  type NoteVerifier,
  type NoteVerifierKey,
} from "./note-key.js";
export { MAX_NOTE_SIGNATURES, formatNote, formatSignatureLine, openNote, parseNote, signNote, type Note, type NoteSignature, type VerifiedNote } from "./signed-note.js";
export { formatCheckpoint, openCheckpoint, parseCheckpoint, signCheckpoint, type Checkpoint, type VerifiedCheckpoint } from "./checkpoint.js";
export { authorityVerifierKey, authorityVerifierKeys, defaultAuthorityName, parseTileOrigin, tileCheckpointSigner, tileOrigin, tileVerifierKey, type TileOrigin } from "./tile-origin.js";
export {
  COSIGNATURE_V1_TYPE,
  cosignatureVerifier,
  cosignedMessage,
  cosignerKeyId,
  createCosigner,
  findCosignature,
  formatCosignerVerifierKey,
  readCosignature,
  type Cosignature,
  type Cosigner,
} from "./cosignature.js";
export { DEFAULT_FINALITY_TIMEOUT_MS, FinalityTimeoutError } from "./finality.js";
export {
  parseWitnesses,
  verifyFinality,
  witnessMajority,
  type FinalityCheck,
  type FinalityCheckName,
  type FinalityKeys,
  type FinalityVerification,
  type WitnessSet,
} from "./verify-finality.js";
export { MAX_PROOF_LINES, formatAddCheckpointRequest, submitCheckpoint, type AddCheckpointRequest, type SubmitOptions, type SubmitOutcome } from "./witness-client.js";
export { GENESIS_CHECKPOINT_HASH, checkpointHash, formatTileCheckpoint, openTileCheckpoint, parseTileCheckpoint, type TileCheckpoint } from "./tile-checkpoint.js";
export { PhaseWindowError, TemporalError, TemporalRangeError, TemporalTypeError, TsaeRequestError, type ErrorCode, type FieldIssue } from "./errors.js";
export type {
  CosignedCheckpoint,
  Finality,
  ForkEvidence,
  WitnessCosignature,
  WitnessError,
  WitnessReachability,
  WitnessState,
  WitnessTileState,
  Witnessed,
  WitnessedTileState,
  WitnessingHealth,
  WitnessingStatus,
} from "./witnessing-types.js";
export type {
  AnchorOptions,
  AnchorProof,
  AnchorSummary,
  Authority,
  AuthorityNowOptions,
  Duration,
  KernelVersion,
  PhaseContext,
  PublicKeyJwk,
  Receipt,
  SignedCheckpoint,
  TimeStamp,
  TsaeRequest,
  Window,
  ZoneInput,
} from "./types.js";
export type {
  AllowRequest,
  AllowResult,
  AnchorPage,
  AnchorRequest,
  ApiErrorBody,
  CarbonRecommendation,
  CarbonWindow,
  Challenge,
  ClockchainStatus,
  StoreStatus,
  ConsistencyProof,
  CoreState,
  DiffRequest,
  KeySet,
  QualityDecision,
  ScheduleRequest,
  ScheduleResult,
  ScheduleTask,
  ScheduledTask,
  Tier,
  TileStatus,
  TpeVectorResult,
  TsaeIssueRequest,
  TwatchNow,
  VerifyRequest,
  VerifyResult,
} from "./service-types.js";
// The HTTP client of the service: browser-safe too (fetch, AbortController, URL).
export * from "../remote/index.js";
// Authorities composed of a signer, a log store and a challenge store, and their in-memory parts.
export * from "../authority/index.js";
