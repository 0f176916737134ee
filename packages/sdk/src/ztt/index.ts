export { windowInterval, type UtcInterval } from "./window-interval.js";
export { ZTT_VERSION, type ZttCertificate } from "./certificate.js";
export type { ZttCertifyRequest } from "./certify.js";
export { ZttClockSkewError, ZttWindowClosedError, createZttSigner, type ZttAnchorTarget, type ZttBundle, type ZttSigner, type ZttSignerOptions } from "./signer.js";
export { ZTT_RECEIPT_SCOPE, anchorZtt, zttBundleHash, type AnchoredZttBundle, type ZttAnchor } from "./anchor.js";
export { DEFAULT_ZTT_SKEW_MS, verifyZtt, type ZttVerification, type ZttVerifyOptions } from "./verify.js";
export type { ZttCheck, ZttCheckName } from "./checks.js";
