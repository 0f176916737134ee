import { decodeShareFragment, encodeShareFragment, ShareLinkError, type SharedPlayground } from "../share.js";
import type { PlaygroundState } from "../state.js";
import { showNotice } from "./notice.js";

const SHARE_LINK_SHAPE = /^#v\d+\./;

/** The Share button: puts the playground in the address bar's fragment and copies the link. */
export function setUpShareButton(button: HTMLButtonElement, state: PlaygroundState): void {
  button.addEventListener("click", () => {
    void encodeShareFragment({ source: state.source, settings: state.settings }).then(async (fragment) => {
      history.replaceState(null, "", fragment);
      const link = location.href;
      clearFragmentOnNextChange(state);
      try {
        await navigator.clipboard.writeText(link);
        showNotice("Link copied: it holds the source and the time settings.");
      } catch {
        // No clipboard permission (or not a secure context): the link is in the address bar all the same.
        showNotice("The link is in the address bar: copy it from there.");
      }
    });
  });
}

/**
 * Takes the share link out of the address bar on the next change to the playground: it no longer describes what is
 * on screen, and a reload would bring back the shared version over the edits.
 */
export function clearFragmentOnNextChange(state: PlaygroundState): void {
  // Only this link: one opened since (a hashchange) is left in place.
  const link = location.hash;
  const unsubscribe = state.subscribe(() => {
    unsubscribe();
    if (location.hash === link) history.replaceState(null, "", location.pathname + location.search);
  });
}

/**
 * The playground a page's fragment encodes, null when it has none; a broken link says why (and the caller shows the default).
 * Only a fragment shaped like a share link (`#v<N>.`) is read as one: `#editor` (the skip link) and other anchors are not links.
 */
export async function sharedFromFragment(fragment: string): Promise<SharedPlayground | null> {
  if (!SHARE_LINK_SHAPE.test(fragment)) return null;
  try {
    return await decodeShareFragment(fragment);
  } catch (error) {
    const message = error instanceof ShareLinkError ? `${error.message} (${error.code})` : "this share link could not be read";
    showNotice(`Could not open the shared playground: ${message}. Showing an example instead.`, "error");
    return null;
  }
}
