// Types for third-party-notices.mjs, for the TypeScript that imports it (the playground's build/third-party-notices.ts, the tests).
export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly text: string;
}

export function bundledPackages(metafile: { inputs: Record<string, unknown> }, workingDir: string, product?: string): BundledPackage[];
export function packagesOfModules(modulePaths: Iterable<string>, product?: string): BundledPackage[];
export function renderNotices(packages: readonly BundledPackage[], product?: string): string;
export function writeThirdPartyNotices(metafile: { inputs: Record<string, unknown> }, workingDir: string, file: string, product?: string): void;
export function writeNotices(packages: readonly BundledPackage[], file: string, product?: string): void;
