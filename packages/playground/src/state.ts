/**
 * The playground's one piece of shared state: the mission source and the
 * time settings the panels read. Every part of the page (editor, tabs, time
 * panel, share links) reads it and writes through it, so there is a single
 * source of truth and no part talks to another directly.
 */
export interface PlaygroundSettings {
  /** The instant the verdict is computed for, in epoch milliseconds; `null` means "live now". */
  at: number | null;
  /** Grid carbon intensity (gCO2/kWh) for carbon requirements; `null` = not given. */
  carbon: number | null;
  /** HS-Bloch score for quantum requirements; `null` = not given. */
  hsBloch: number | null;
}

export interface PlaygroundState {
  readonly source: string;
  readonly settings: PlaygroundSettings;
  /** The name the source goes by in diagnostics and commands, e.g. "playground.mission". */
  readonly filename: string;
  setSource(text: string): void;
  setSettings(patch: Partial<PlaygroundSettings>): void;
  /** `listener` is called after any change (debouncing is the listener's business); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export interface PlaygroundStateInit {
  source?: string;
  settings?: Partial<PlaygroundSettings>;
}

/** What the playground's source is called, in diagnostics and in the equivalent `temporalc` commands. */
const FILENAME = "playground.mission";

const NO_SETTINGS: PlaygroundSettings = { at: null, carbon: null, hsBloch: null };

export function createPlaygroundState(initial: PlaygroundStateInit = {}): PlaygroundState {
  let source = initial.source ?? "";
  let settings: PlaygroundSettings = checkedSettings({ ...NO_SETTINGS, ...initial.settings });
  const listeners = new Set<() => void>();

  function notify(): void {
    // A copy: a listener that unsubscribes (or subscribes) while being notified does not disturb this round.
    for (const listener of [...listeners]) listener();
  }

  return {
    get source() {
      return source;
    },
    get settings() {
      return settings;
    },
    filename: FILENAME,
    setSource(text) {
      if (typeof text !== "string") throw new TypeError("setSource: the source must be a string");
      if (text === source) return;
      source = text;
      notify();
    },
    setSettings(patch) {
      const next = checkedSettings({ ...settings, ...patch });
      if (next.at === settings.at && next.carbon === settings.carbon && next.hsBloch === settings.hsBloch) return;
      settings = next;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Settings are frozen (readers cannot change them behind the state's back) and each value is a finite number or null. */
function checkedSettings(settings: PlaygroundSettings): PlaygroundSettings {
  for (const key of ["at", "carbon", "hsBloch"] as const) {
    const value = settings[key];
    if (value !== null && (typeof value !== "number" || !Number.isFinite(value))) {
      throw new RangeError(`setSettings: ${key} must be a finite number or null, got ${String(value)}`);
    }
  }
  return Object.freeze({ at: settings.at, carbon: settings.carbon, hsBloch: settings.hsBloch });
}
