import { createMemoryAuthority, type Authority, type ComposedAuthority, type Mission } from "@temporal/agent-sdk";
import type { Diagnostic } from "@temporal/compiler";
import { dialSvg, missionDials, type FileDial } from "@temporal/language-service";
import type { PlaygroundState } from "../state.js";
import { createCommandView } from "./command-view.js";
import { createControls } from "./controls.js";
import { h } from "./dom.js";
import { createCompileClient } from "./compile-client.js";
import { instantiateMissions, type CompiledForPage } from "./load-missions.js";
import { createRunView } from "./run-view.js";
import { verdictOf, type VerdictView } from "./verdict.js";
import "./time-panel.css";

/** Quiet time after the last change before the panel recomputes: typing a word costs one compile, not one per key. */
const SETTLE_MS = 150;
/** The name of the User Timing measure of each refresh: from a settled change to its verdicts on screen (compile in the worker, dial, verdicts). */
const REFRESH_MEASURE = "time-panel refresh";
/** How often the live clock moves the panel on. */
const LIVE_TICK_MS = 15_000;

/**
 * The time panel: the file's 24-hour dial (exactly `dialSvg`'s markup, as
 * `temporalc show --svg` writes it), the instant and measures, per mission
 * the verdict with its reasons and next transition, Run, and the equivalent
 * command. The source is compiled in a worker of the panel's own once typing
 * settles; the page only loads the generated code and decides.
 */
export function mountPanel(host: HTMLElement, state: PlaygroundState): void {
  let authority: ComposedAuthority | undefined;
  // One in-memory authority for the page's verdicts and runs (its clockchain grows with each Run); a new one if it failed.
  const pageAuthority = (): Authority => {
    if (authority === undefined || authority.closed || authority.failed) authority = createMemoryAuthority();
    return authority;
  };
  const viewerTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  const problem = h("p", { class: "tp-error", role: "status", "data-testid": "time-source-problem" });
  const dial = h("div", { class: "tp-dial", "data-testid": "dial" });
  const verdicts = h("div", { class: "tp-verdicts", "data-testid": "verdicts" });
  const run = createRunView(state, pageAuthority);
  const controls = createControls(state, (fieldProblem) => run.setInputProblem(fieldProblem));
  const commands = createCommandView();
  host.replaceChildren(h("h2", {}, "Time"), controls.element, problem, dial, verdicts, h("h3", {}, "Run"), run.element, commands.element);

  const stale = (isStale: boolean): void => {
    for (const element of [dial, verdicts]) element.classList.toggle("tp-stale", isStale);
  };
  const cards = new Map<string, HTMLElement>();
  const compileInWorker = createCompileClient(new Worker(new URL("./compile-worker.ts", import.meta.url), { type: "module", name: "mission-time-panel" }));
  // The last source compiled, and its missions loaded into the page: a settings change reuses them.
  let loaded: { readonly source: string; readonly filename: string; readonly result: Promise<Loaded> } | undefined;
  let generation = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;

  const refresh = async (): Promise<void> => {
    const mine = ++generation;
    const started = performance.now();
    const { source, filename, settings } = state;
    const at = settings.at ?? Date.now();
    controls.show(settings, at);
    if (loaded?.source !== source || loaded.filename !== filename) {
      loaded = { source, filename, result: compileInWorker(source, filename).then(withMissions) };
    }
    let result: Loaded;
    try {
      result = await loaded.result;
    } catch (error) {
      loaded = undefined; // try again on the next change
      if (mine !== generation) return;
      const why = error instanceof Error ? error.message : String(error);
      problem.textContent = why;
      run.setMissions({ disabledBecause: `Run is off: ${why}` });
      return;
    }
    if (mine !== generation) return; // a newer refresh started while this one awaited
    commands.show(
      filename,
      settings,
      result.model.missions.some((m) => m.tasks.length > 0),
    );
    const fileDial = result.ok ? missionDials(result.model, { at, viewerTimeZone }) : null;
    if (!result.ok || fileDial === null) {
      const why = result.ok ? "The file's time zone is not known to this browser's time-zone data." : errorSummary(result.errors);
      // The last good dial and verdicts stay, marked stale: no flicker while a word is half typed.
      problem.textContent = `${why} The dial and verdicts below are those of the last version without errors.`;
      stale(true);
      run.setMissions({ disabledBecause: `Run is off until it is fixed. ${why}` });
      return;
    }
    problem.textContent = "";
    stale(false);
    run.setMissions(result.missions);
    const views = await Promise.all(result.missions.map((mission) => verdictOf(mission, fileDial, { at, carbon: settings.carbon, hsBloch: settings.hsBloch, authority: pageAuthority() })));
    if (mine !== generation) return; // a newer refresh started while this one awaited
    showDial(dial, fileDial);
    showVerdicts(verdicts, cards, views);
    // User Timing, for the browser tests and the bench.
    performance.measure(REFRESH_MEASURE, { start: started });
  };
  const settle = (): void => {
    clearTimeout(pending);
    pending = setTimeout(() => void refresh(), SETTLE_MS);
  };
  let shownSettings = state.settings;
  state.subscribe(() => {
    // The inputs follow a change of settings at once (the slider's words while dragging); the verdicts once changes settle.
    if (state.settings !== shownSettings) controls.show(state.settings, state.settings.at ?? Date.now());
    shownSettings = state.settings;
    settle();
  });
  setInterval(() => {
    if (state.settings.at === null) void refresh();
  }, LIVE_TICK_MS);
  void refresh();
}

/** A compile result, with the missions of its code loaded into the page. */
type Loaded = Exclude<CompiledForPage, { ok: true }> | (Extract<CompiledForPage, { ok: true }> & { readonly missions: readonly Mission[] });

function withMissions(compiled: CompiledForPage): Loaded {
  return compiled.ok ? { ...compiled, missions: instantiateMissions(compiled.code) } : compiled;
}

/** `The source has 2 errors (first, line 20: M100 unexpected characters)`. */
function errorSummary(errors: readonly Diagnostic[]): string {
  const first = errors[0];
  const where = first === undefined ? "" : ` (first, line ${first.range.start.line}: ${first.code} ${first.message})`;
  return `The source has ${errors.length === 1 ? "an error" : `${errors.length} errors`}${where}.`;
}

/**
 * The dial's markup as `dialSvg` returns it, replaced only when it changes (no flicker while the verdict is
 * recomputed). `data-svg` keeps the exact string: `innerHTML` reads back the browser's re-serialisation, so a
 * test comparing with `temporalc show --svg` byte for byte reads the attribute.
 */
function showDial(container: HTMLElement, dial: FileDial): void {
  const svg = dialSvg(dial);
  if (container.dataset["svg"] === svg) return;
  container.innerHTML = svg;
  container.dataset["svg"] = svg;
}

/**
 * One card per mission, kept across refreshes (a live region announces
 * changes to what it holds, not a region that is replaced), in file order.
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
      card = h("div", { class: "tp-verdict", "data-testid": "verdict", "data-mission": view.mission, "aria-live": "polite", "aria-atomic": "true" });
      cards.set(view.mission, card);
    }
    card.dataset["verdict"] = view.verdict;
    card.replaceChildren(
      h("p", { class: "tp-verdict-head" }, h("strong", {}, view.mission), ": ", h("span", { class: `tp-verdict-word tp-${view.verdict.toLowerCase()}` }, view.verdict)),
      ...(view.reasons.length === 0 ? [] : [h("ul", { class: "tp-reasons" }, ...view.reasons.map((r) => h("li", { "data-reason": r.code }, r.text)))]),
      h("p", { class: "tp-next", "data-testid": "next-transition" }, `Window ${view.nextText}`),
    );
    return card;
  });
  list.replaceChildren(...ordered);
}
