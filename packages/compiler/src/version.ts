/** The mission language version this compiler implements. */
export const LANGUAGE_VERSION = { major: 4, minor: 6, patch: 2 } as const;
export const LANGUAGE_VERSION_TEXT = `v${LANGUAGE_VERSION.major}.${LANGUAGE_VERSION.minor}.${LANGUAGE_VERSION.patch}`;

/** This package's version; it names the compiler in generated code (a test keeps it equal to package.json). */
export const COMPILER_VERSION = "0.1.0";
