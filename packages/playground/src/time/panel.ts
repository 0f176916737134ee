import type { Diagnostic } from "@temporal/compiler";
import type { PlaygroundState } from "../state.js";
import type { LanguageClient } from "../worker/client.js";
import type { PanelDial } from "../worker/protocol.js";
import { createCommandView } from "./command-view.js";
import { createControls } from "./controls.js";
import { h } from "./dom.js";
import type { VerdictView } from "../worker/verdict.js";
import { createRunView } from "./run-view.js";
import "./time-panel.css";

/** Quiet time after the last change before the panel recomputes: typing a word costs one compile, not one per key. */
const SETTLE_MS = 150;
/** The name of the User Timing measure of each refresh: from a settled change to its verdicts on screen (compile, dial and verdicts in the worker). */
const REFRESH_MEASURE = "time-panel refresh";
/** How often the live clock moves the panel on. */
const LIVE_TICK_MS = 15_000;

/**
 * The time panel: the file's 24-hour dial (exactly `dialSvg`'s markup, as
 * `temporalc show --svg` writes it), the instant and measures, per mission
 * the verdict with its reasons and next transition, Run, and the equivalent
 * command. The language worker (the editor's) compiles the source, computes
 * the dial and decides once typing settles, and performs Run; the page only
 * renders. Neither the compiler, the language service nor the SDK is loaded
 * on the page.
 */
export function mountPanel(host: HTMLElement, state: PlaygroundState, client: LanguageClient): void {
  const problem = h("p", { class: "tp-error", role: "status", "data-testid": "time-source-problem" });
  const dial = h("div", { class: "tp-dial", "data-testid": "dial" });
  const verdicts = h("div", { class: "tp-verdicts", "data-testid": "verdicts" });
  const run = createRunView(state, client);
  const controls = createControls(state, (fieldProblem) => run.setInputProblem(fieldProblem));
  const commands = createCommandView();
  host.replaceChildren(h("h2", {}, "Time"), controls.element, problem, dial, verdicts, h("h3", {}, "Run"), run.element, commands.element);

  const stale = (isStale: boolean): void => {
    for (const element of [dial, verdicts]) element.classList.toggle("tp-stale", isStale);
  };
  const cards = new Map<string, HTMLElement>();
  let generation = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;

  /** Why there is no fresh verdict: said above the dial, which stays (marked stale), and as the reason Run is off. */
  const showProblem = (shown: string, runOff: string): void => {
    problem.textContent = shown;
    stale(true);
    run.setMissions({ disabledBecause: runOff });
  };
  const showFailure = (error: unknown): void => {
    const why = error instanceof Error ? error.message : String(error);
    showProblem(why, `Run is off: ${why}`);
  };

  const update = async (mine: number): Promise<void> => {
    const started = performance.now();
    const { source, filename, settings } = state;
    const at = settings.at ?? Date.now();
    controls.show(settings, at);
    const answer = await client.request("timePanel", { text: source, filename, at, carbon: settings.carbon, hsBloch: settings.hsBloch });
    if (mine !== generation) return; // a newer refresh started while this one awaited
    const { compiled } = answer;
    commands.show(
      filename,
      settings,
      compiled.model.missions.some((m) => m.tasks.length > 0),
    );
    if (!compiled.ok || answer.dial === null) {
      const why = compiled.ok ? "The file's time zone is not known to this browser's time-zone data." : errorSummary(compiled.errors);
      // The last good dial and verdicts stay, marked stale: no flicker while a word is half typed.
      return showProblem(`${why} The dial and verdicts below are those of the last version without errors.`, `Run is off until it is fixed. ${why}`);
    }
    problem.textContent = "";
    stale(false);
    run.setMissions(answer.verdicts.map((view) => view.mission));
    showDial(dial, answer.dial);
    showVerdicts(verdicts, cards, answer.verdicts);
    // User Timing, for the browser tests and the bench: only the last refresh's, so a long session does not pile up entries.
    performance.clearMeasures(REFRESH_MEASURE);
    performance.measure(REFRESH_MEASURE, { start: started });
  };
  const refresh = async (): Promise<void> => {
    const mine = ++generation;
    try {
      await update(mine);
    } catch (error) {
      // Whatever the settings (a link from anyone) or the worker do, the panel says what went wrong and keeps working.
      if (mine === generation) showFailure(error);
    }
  };
  const settle = (): void => {
    clearTimeout(pending);
    pending = setTimeout(() => void refresh(), SETTLE_MS);
  };
  let shownSettings = state.settings;
  state.subscribe(() => {
    // The inputs follow a change of settings at once (the slider's words while dragging); the verdicts once changes settle.
    if (state.settings !== shownSettings) {
      try {
        controls.show(state.settings, state.settings.at ?? Date.now());
      } catch (error) {
        showFailure(error);
      }
    }
    shownSettings = state.settings;
    settle();
  });
  setInterval(() => {
    if (state.settings.at === null) void refresh();
  }, LIVE_TICK_MS);
  void refresh();
}

/** `The source has 2 errors (first, line 20: M100 unexpected characters)`. */
function errorSummary(errors: readonly Diagnostic[]): string {
  const first = errors[0];
  const where = first === undefined ? "" : ` (first, line ${first.range.start.line}: ${first.code} ${first.message})`;
  return `The source has ${errors.length === 1 ? "an error" : `${errors.length} errors`}${where}.`;
}

/**
 * The dial's markup as `dialSvg` returns it (in the worker), replaced only when it changes (no flicker while the
 * verdict is recomputed). `data-svg` keeps the exact string: `innerHTML` reads back the browser's re-serialisation,
 * so a test comparing with `temporalc show --svg` byte for byte reads the attribute.
 */
function showDial(container: HTMLElement, dial: PanelDial): void {
  if (container.dataset["svg"] === dial.svg) return;
  container.innerHTML = dial.svg;
  container.dataset["svg"] = dial.svg;
}

/**
 * One card per mission, kept across refreshes, in file order. Only the verdict word is a live region: a screen
 * reader hears ALLOW or DENY when it changes, not the whole card each time the live clock moves the panel on
 * ("in 35 min" becoming "in 34 min"); a card whose view did not change is not touched at all.
 */
function showVerdicts(list: HTMLElement, cards: Map<string, HTMLElement>, views: readonly VerdictView[]): void {
  const names = new Set(views.map((v) => v.mission));
  for (const [name, card] of cards) {
    if (names.has(name)) continue;
    card.remove();
    cards.delete(name);
  }
  const ordered = views.map((view) => {
    let card = cards.get(view.mission);
    if (card === undefined) {
      const word = h("span", { class: "tp-verdict-word", "data-testid": "verdict-word", "aria-live": "polite", "aria-atomic": "true" });
      card = h("div", { class: "tp-verdict", "data-testid": "verdict", "data-mission": view.mission }, h("p", { class: "tp-verdict-head" }, h("strong", {}, view.mission), ": ", word));
      cards.set(view.mission, card);
    }
    const shown = JSON.stringify(view);
    if (card.dataset["view"] === shown) return card;
    card.dataset["view"] = shown;
    card.dataset["verdict"] = view.verdict;
    const [head] = card.children;
    const word = head!.querySelector<HTMLElement>(".tp-verdict-word")!;
    if (word.textContent !== view.verdict) {
      word.textContent = view.verdict;
      word.className = `tp-verdict-word tp-${view.verdict.toLowerCase()}`;
    }
    card.replaceChildren(
      head!,
      ...(view.reasons.length === 0 ? [] : [h("ul", { class: "tp-reasons" }, ...view.reasons.map((r) => h("li", { "data-reason": r.code }, r.text)))]),
      h("p", { class: "tp-next", "data-testid": "next-transition" }, `Window ${view.nextText}`),
    );
    return card;
  });
  // Only when the order or the set changed: moving a card out and back in would be a change to its region too.
  if (ordered.some((card, i) => list.children[i] !== card) || list.children.length !== ordered.length) list.replaceChildren(...ordered);
}
