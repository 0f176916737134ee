import { describe, expect, it } from "vitest";
import { TemporalError } from "../src/core/errors.js";
import { defaultSdk } from "../src/web/default-sdk.js";

// What `#default-sdk` resolves to where the `node` condition does not apply (browsers, workers, edge runtimes).
describe("the default authority outside Node", () => {
  it("is none yet: a coded error that says to pass `sdk`", () => {
    let thrown: unknown;
    try {
      defaultSdk();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TemporalError);
    expect(thrown).toMatchObject({ code: "NO_DEFAULT_AUTHORITY", message: expect.stringContaining("pass `sdk`") });
  });
});
