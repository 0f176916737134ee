import type { Authority, Mission } from "@temporal/agent-sdk";
import type { PlaygroundState } from "../state.js";
import { h } from "./dom.js";
import { runMissions, type MissionRun, type VerifiedReceipt } from "./run-missions.js";

/**
 * The Run button and what a run shows: the stand-in tasks' lines, then per
 * mission its verdict, and per receipt the verification (each check) with
 * the receipt and its inclusion proof as JSON.
 */
export interface RunView {
  readonly element: HTMLElement;
  /** The missions Run would run, or why it cannot (the source has errors). */
  setMissions(missions: readonly Mission[] | { readonly disabledBecause: string }): void;
  /** What is wrong with the measure fields, if anything: Run waits until they read (it would run with the last values that did). */
  setInputProblem(problem: string | null): void;
}

export function createRunView(state: PlaygroundState, authority: () => Authority): RunView {
  const button = h("button", { type: "button", class: "tp-run-button", "data-testid": "run-button", "aria-describedby": "tp-run-why" }, "Run");
  const whyText = h("span", { id: "tp-run-why", class: "tp-run-why", "data-testid": "run-disabled-reason" });
  const output = h("pre", { class: "tp-output", "data-testid": "run-output", "aria-label": "Task output", tabindex: "0" });
  // A short status is announced; the results (JSON included) are there to read, not to be read out.
  const status = h("p", { role: "status", "data-testid": "run-status" });
  const results = h("div", { class: "tp-run-results", "data-testid": "run-results" });
  let missions: readonly Mission[] = [];
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
    const log = (line: string) => output.append(`${line}\n`);
    runMissions({ missions, settings: state.settings, authority: authority(), log })
      .then((runs) => {
        results.replaceChildren(...runs.map(describeRun));
        status.textContent = runSummary(runs);
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
      h("p", { class: "tp-hint" }, "Runs every mission at the chosen time with the measures above, against an authority in this page; tasks are stand-ins that only log."),
      status,
      output,
      results,
    ),
    setMissions(next) {
      missionsProblem = "disabledBecause" in next ? next.disabledBecause : next.length === 0 ? "No mission to run." : "";
      missions = "disabledBecause" in next ? [] : next;
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
