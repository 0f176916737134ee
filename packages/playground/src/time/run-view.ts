import type { PlaygroundState } from "../state.js";
import type { LanguageClient } from "../worker/client.js";
import type { MissionRun, VerifiedReceipt } from "../worker/run-missions.js";
import { h } from "./dom.js";

/**
 * The Run button and what a run shows: the stand-in tasks' lines, then per
 * mission its verdict, and per receipt the verification (each check) with
 * the receipt and its inclusion proof as JSON, and the authority's public
 * keys (to verify the receipts elsewhere). The language worker runs and
 * verifies; this only renders its answer.
 */
export interface RunView {
  readonly element: HTMLElement;
  /** The names of the missions Run would run, or why it cannot (the source has errors). */
  setMissions(missions: readonly string[] | { readonly disabledBecause: string }): void;
  /** What is wrong with the measure fields, if anything: Run waits until they read (it would run with the last values that did). */
  setInputProblem(problem: string | null): void;
}

export function createRunView(state: PlaygroundState, client: LanguageClient): RunView {
  const button = h("button", { type: "button", class: "tp-run-button", "data-testid": "run-button", "aria-describedby": "tp-run-why" }, "Run");
  const whyText = h("span", { id: "tp-run-why", class: "tp-run-why", "data-testid": "run-disabled-reason" });
  const output = h("pre", { class: "tp-output", "data-testid": "run-output", "aria-label": "Task output", tabindex: "0" });
  // A short status is announced; the results (JSON included) are there to read, not to be read out.
  const status = h("p", { role: "status", "data-testid": "run-status" });
  const results = h("div", { class: "tp-run-results", "data-testid": "run-results" });
  let running = false;
  let missionsProblem = "";
  let inputProblem: string | null = null;
  const update = (): void => {
    const why = missionsProblem !== "" ? missionsProblem : inputProblem === null ? "" : `Run waits for the measures: ${inputProblem}`;
    // A run in progress keeps the button off; it turns back on when the run ends.
    button.disabled = running || why !== "";
    whyText.textContent = why;
  };

  button.addEventListener("click", () => {
    running = true;
    button.disabled = true;
    output.textContent = "";
    results.replaceChildren();
    status.textContent = "Running…";
    const { source, filename, settings } = state;
    // In live mode the instant is the click's, pinned: every mission of one run is decided at the same instant.
    client
      .request("run", { text: source, filename, at: settings.at ?? Date.now(), carbon: settings.carbon, hsBloch: settings.hsBloch })
      .then((answer) => {
        output.textContent = answer.log.map((line) => `${line}\n`).join("");
        results.replaceChildren(...answer.runs.map(describeRun), describeKeys(answer.publicKeys));
        status.textContent = runSummary(answer.runs);
      })
      .catch((error: unknown) => (status.textContent = `Run failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = false;
        update();
      });
  });

  return {
    element: h(
      "div",
      { class: "tp-run" },
      h("div", { class: "tp-row" }, button, whyText),
      h("p", { class: "tp-hint" }, "Runs every mission at the chosen time with the measures above, against an in-memory authority in this page's worker; tasks are stand-ins that only log."),
      status,
      output,
      results,
    ),
    setMissions(next) {
      missionsProblem = "disabledBecause" in next ? next.disabledBecause : next.length === 0 ? "No mission to run." : "";
      update();
    },
    setInputProblem(problem) {
      inputProblem = problem;
      update();
    },
  };
}

/** `Ran 2 missions: 1 receipt, verified.` */
function runSummary(runs: readonly MissionRun[]): string {
  const receipts = runs.flatMap((run) => (run.ok ? run.verified : []));
  const failed = runs.filter((run) => !run.ok).length;
  const verified = receipts.every((r) => r.valid) ? "verified" : `${receipts.filter((r) => !r.valid).length} NOT verified`;
  return [
    `Ran ${runs.length === 1 ? "1 mission" : `${runs.length} missions`}`,
    `: ${receipts.length === 1 ? "1 receipt" : `${receipts.length} receipts`}${receipts.length === 0 ? "" : `, ${verified}`}`,
    failed === 0 ? "." : `; ${failed} could not finish.`,
  ].join("");
}

function describeRun(run: MissionRun): HTMLElement {
  if (!run.ok)
    return h(
      "section",
      { class: "tp-run-mission", "data-mission": run.mission },
      h("h4", {}, run.mission),
      h("p", { class: "tp-error", role: "alert" }, `${run.error.code}: ${run.error.message}`),
    );
  const { result } = run;
  return h(
    "section",
    { class: "tp-run-mission", "data-mission": run.mission },
    h("h4", {}, `${run.mission}: `, h("span", { class: `tp-verdict-word tp-${result.verdict.toLowerCase()}` }, result.verdict), ` at ${result.ctx.utc}`),
    h("p", {}, `Ran: ${result.executed.length === 0 ? "nothing" : result.executed.join(", ")}. Receipts: ${result.receipts.length}.`),
    ...run.verified.map(describeReceipt),
  );
}

function describeReceipt(verified: VerifiedReceipt): HTMLElement {
  const held = verified.checks.filter((c) => c.ok).length;
  const summary = verified.valid
    ? `Receipt verified: all ${verified.checks.length} checks hold`
    : `Receipt NOT verified: ${verified.checks.length - held} of ${verified.checks.length} checks fail`;
  return h(
    "div",
    { class: "tp-receipt" },
    h("p", { "data-testid": "receipt-verification", "data-valid": String(verified.valid), class: verified.valid ? "tp-ok" : "tp-error" }, summary),
    h(
      "ul",
      { class: "tp-checks" },
      ...verified.checks.map((c) =>
        h("li", { "data-check": c.name, "data-ok": String(c.ok) }, `${c.ok ? "✓ holds" : "✗ fails"}: ${c.name}${c.reason === undefined ? "" : ` (${c.reason})`}`),
      ),
    ),
    h("details", {}, h("summary", {}, "Receipt (JSON)"), h("pre", { "data-testid": "receipt-json" }, JSON.stringify(verified.receipt, null, 2))),
    h(
      "details",
      {},
      h("summary", {}, "Inclusion proof (JSON)"),
      h("pre", { "data-testid": "proof-json" }, verified.proof === undefined ? "not anchored" : JSON.stringify(verified.proof, null, 2)),
    ),
  );
}

/** The authority's public keys in the shape of a service's `GET keys` body: saved as keys.json, `temporalc verify --keys keys.json` checks the receipts above. */
function describeKeys(keys: Readonly<Record<string, unknown>>): HTMLElement {
  return h(
    "details",
    { class: "tp-receipt" },
    h("summary", {}, "The authority's public keys (JSON, for temporalc verify --keys)"),
    h("pre", { "data-testid": "run-public-keys" }, JSON.stringify({ keys }, null, 2)),
  );
}
