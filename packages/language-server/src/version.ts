/** This package's version, reported in `initialize` and by `--version` (a test keeps it equal to package.json). */
export const SERVER_VERSION = "0.1.0";
