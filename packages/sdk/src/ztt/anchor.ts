import { canonicalJson } from "../core/canonical-json.js";
import { sha256Hex } from "../core/sha256.js";
import { createTsaeRequest } from "../core/tsae.js";
import type { AnchorOptions, AnchorProof, Authority, Receipt } from "../core/types.js";
import type { ZttBundle } from "./signer.js";

/** The scope of the receipt that wraps a ZTT bundle in the clockchain. */
export const ZTT_RECEIPT_SCOPE = "ztt.bundle.v1";

/**
 * A bundle's place in the clockchain: the authority's receipt whose `action_hash_hex` is the bundle's hash and
 * whose time fields are the bundle's signing context, and that receipt's anchor proof (with `witnessed`, the
 * cosigned checkpoint, once `FINAL`).
 */
export interface ZttAnchor {
  readonly receipt: Receipt;
  readonly proof: AnchorProof;
}

/** A bundle that carries its anchor. */
export interface AnchoredZttBundle extends ZttBundle {
  readonly anchor: ZttAnchor;
}

/** SHA-256 hex of the canonical JSON of the bundle without `anchor` (its ephemeral signature included): what the receipt anchors. */
export function zttBundleHash(bundle: ZttBundle): string {
  return sha256Hex(canonicalJson(withoutAnchor(bundle)));
}

/** The bundle as its ephemeral key signed it and as it is anchored: every field but `anchor`. */
export function withoutAnchor(bundle: ZttBundle): Omit<ZttBundle, "anchor"> {
  const { anchor: _anchor, ...signed } = bundle;
  return signed;
}

/**
 * Anchors `bundle` in `authority`'s clockchain (local, memory or remote): the authority issues a receipt for the
 * bundle's hash at the bundle's signing context and anchors it; with `options` (`quorum`, `timeoutMs`) it waits for
 * `FINAL`, as `Authority.anchor` does (`FINALITY_TIMEOUT`, `QUORUM_UNREACHABLE`). Returns the bundle with `anchor`.
 */
export async function anchorZtt(bundle: ZttBundle, authority: Authority, options?: AnchorOptions): Promise<AnchoredZttBundle> {
  const signed = withoutAnchor(bundle);
  const receipt = await authority.issueReceipt(createTsaeRequest(signed.context, { scope: ZTT_RECEIPT_SCOPE, action_hash_hex: zttBundleHash(signed) }));
  const proof = await authority.anchor(receipt, options);
  return { ...signed, anchor: { receipt, proof } };
}
