export interface PackOptions {
  /** The folder the tarballs go to, replaced as a whole; default dist-packages/ at the repository's root. */
  readonly destination?: string;
  /** Run each package's `prepack` (a rebuild from scratch) first; default true. False packs the current builds as they are. */
  readonly runPrepack?: boolean;
}

/** Packs every public workspace package into `destination` and returns the tarballs' paths, sorted. */
export function packAll(options?: PackOptions): string[];
