/**
 * This package's version, which the stand-in reports in `GET openapi.json` as temporal-service reports its own
 * (the two are released together). A constant because platform-free code cannot read package.json; a test keeps it equal.
 */
export const SDK_VERSION = "0.1.0";
