import { LocalAuthority } from "@temporal/agent-sdk/node";
import type {
  AnchorPage,
  AnchorProof,
  Challenge,
  ClockchainStatus,
  ConsistencyProof,
  PublicKeyJwk,
  Receipt,
  TsaeRequest,
  VerifyResult,
} from "@temporal/agent-sdk";

/**
 * What the service keeps and signs with. The embedded default is the SDK's
 * local authority (a signing key and the durable per-tile clockchain under
 * `--home`); another store, such as PostgreSQL, implements the same calls.
 */
export interface ServiceStore {
  issueChallenge(options: { ttlMs: number }): Promise<Challenge>;
  issueReceipt(request: TsaeRequest, options: { challenge?: Challenge }): Promise<Receipt>;
  anchor(receipt: Receipt): Promise<AnchorProof>;
  getAnchorProof(receiptHash: string): Promise<AnchorProof | undefined>;
  getConsistencyProof(tileId: number, first: number, second: number): Promise<ConsistencyProof>;
  listAnchorPage(tileId: number, page: { offset?: number; limit?: number }): Promise<AnchorPage>;
  clockchainStatus(): Promise<ClockchainStatus>;
  verifyAnchored(receipt: unknown, proof: unknown): Promise<VerifyResult>;
  publicKeys(): Promise<Record<string, PublicKeyJwk>>;
  /** Waits for writes in progress, makes them durable and releases the store. */
  close(): Promise<void>;
}

export function fileStore(home: string, clock: () => number): ServiceStore {
  return new LocalAuthority({ home, clock });
}
