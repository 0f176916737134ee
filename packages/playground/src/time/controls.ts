import type { PlaygroundSettings, PlaygroundState } from "../state.js";
import { decimal } from "./command-line.js";
import { dayAround, fromLocalInput, instantAt, instantInWords, localInputValue, sliderValue } from "./day-slider.js";
import { h } from "./dom.js";
import { readCarbon, readHsBloch, type MeasureReading } from "./measure-input.js";

/**
 * The inputs that set the panel's instant and measures: a slider over the
 * viewer's local day (one step a minute), a date-time field, a "live"
 * toggle (follow now), and the carbon and HS-Bloch fields. They write the
 * shared state; `show` writes the state back into them (a share link, or a
 * tick of the live clock) without fighting the field being typed in.
 */
export interface Controls {
  readonly element: HTMLElement;
  show(settings: PlaygroundSettings, at: number): void;
}

/** `onProblem` hears what is wrong with the measure fields (null once both read), so Run can wait for them. */
export function createControls(state: PlaygroundState, onProblem: (problem: string | null) => void): Controls {
  const slider = h("input", { type: "range", id: "tp-slider", min: "0", max: "1439", step: "1", "data-testid": "time-slider" });
  const sliderText = h("output", { id: "tp-slider-text", for: "tp-slider", "data-testid": "time-slider-text" });
  const dateTime = h("input", { type: "datetime-local", id: "tp-datetime", "data-testid": "time-datetime" });
  const live = h("input", { type: "checkbox", id: "tp-live", "data-testid": "time-live" });
  const carbon = h("input", { type: "text", id: "tp-carbon", inputmode: "decimal", autocomplete: "off", placeholder: "not measured", "data-testid": "carbon-input" });
  const hsBloch = h("input", { type: "text", id: "tp-hs-bloch", inputmode: "decimal", autocomplete: "off", placeholder: "not measured", "data-testid": "hs-bloch-input" });
  const carbonError = h("p", { id: "tp-carbon-error", class: "tp-error", "data-testid": "carbon-error" });
  const hsBlochError = h("p", { id: "tp-hs-bloch-error", class: "tp-error", "data-testid": "hs-bloch-error" });
  let day = dayAround(Date.now());

  slider.addEventListener("input", () => state.setSettings({ at: instantAt(Number(slider.value), day) }));
  dateTime.addEventListener("change", () => {
    const at = fromLocalInput(dateTime.value);
    if (at !== undefined) state.setSettings({ at });
  });
  // Leaving live mode pins the current minute, so the verdict does not jump.
  live.addEventListener("change", () => state.setSettings({ at: live.checked ? null : Math.floor(Date.now() / 60_000) * 60_000 }));
  const report = () => onProblem([carbonError.textContent, hsBlochError.textContent].filter((text) => text !== "").join(" ") || null);
  const showCarbon = measureField(carbon, carbonError, readCarbon, (value) => state.setSettings({ carbon: value }), report);
  const showHsBloch = measureField(hsBloch, hsBlochError, readHsBloch, (value) => state.setSettings({ hsBloch: value }), report);

  const element = h(
    "div",
    { class: "tp-controls" },
    h("div", { class: "tp-row" }, h("label", { for: "tp-slider" }, "Time of day"), slider, sliderText),
    h("div", { class: "tp-row" }, h("label", { for: "tp-datetime" }, "Date and time (your zone)"), dateTime, h("label", { class: "tp-inline" }, live, " Live: follow the current time")),
    h(
      "div",
      { class: "tp-row" },
      h("span", { class: "tp-field" }, h("label", { for: "tp-carbon" }, "Carbon (gCO2eq/kWh)"), carbon),
      h("span", { class: "tp-field" }, h("label", { for: "tp-hs-bloch" }, "HS-Bloch (0 to 1)"), hsBloch),
    ),
    carbonError,
    hsBlochError,
  );

  return {
    element,
    show(settings, at) {
      day = dayAround(at);
      slider.max = String(day.minutes - 1);
      slider.value = String(sliderValue(at, day));
      const words = instantInWords(at);
      slider.setAttribute("aria-valuetext", words);
      sliderText.textContent = settings.at === null ? `${words} (live)` : words;
      if (document.activeElement !== dateTime) dateTime.value = localInputValue(at);
      live.checked = settings.at === null;
      showCarbon(settings.carbon);
      showHsBloch(settings.hsBloch);
    },
  };
}

/**
 * Wires a measure field: what is typed goes to the state when it reads, or is marked invalid with what to type.
 * Returns how the state's value is written back into the field: unless it is being edited, or already reads as
 * that value; a value from elsewhere (a share link) replaces invalid text and clears its error.
 */
function measureField(
  input: HTMLInputElement,
  error: HTMLElement,
  read: (text: string) => MeasureReading,
  set: (value: number | null) => void,
  report: () => void,
): (value: number | null) => void {
  const mark = (message: string): void => {
    error.textContent = message;
    if (message === "") {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    } else {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", error.id);
    }
    report();
  };
  input.addEventListener("input", () => {
    const reading = read(input.value);
    mark(reading.ok ? "" : reading.message);
    if (reading.ok) set(reading.value);
  });
  return (value) => {
    if (document.activeElement === input) return;
    const shown = error.textContent !== "" ? undefined : input.value.trim() === "" ? null : Number(input.value);
    if (shown === value) return;
    input.value = value === null ? "" : decimal(value);
    mark("");
  };
}
