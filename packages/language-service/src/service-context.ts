/** What every feature may ask of the service's surroundings; injectable so tests are deterministic. */
export interface ServiceContext {
  /** The current instant (code lenses, hovers' "today"). */
  now: () => Date;
  /** The IANA time zone hovers show clock times in besides the file's zone and UTC. */
  viewerTimeZone: string;
}
