import type { Browser } from "playwright-core";

/** Debian's chromium (.ci/run installs it), found on PATH; throws with how to install it when missing. */
export function findChromium(): string;
/** Headless Chromium, with its sandbox unless running as root. */
export function launchChromium(): Promise<Browser>;
