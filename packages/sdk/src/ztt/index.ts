export { windowInterval, type UtcInterval } from "./window-interval.js";
export { ZTT_VERSION, type ZttCertificate } from "./certificate.js";
export { ZttWindowClosedError, createZttSigner, type ZttBundle, type ZttSigner, type ZttSignerOptions } from "./signer.js";
export { verifyZtt, type ZttCheck, type ZttCheckName, type ZttVerification } from "./verify.js";
