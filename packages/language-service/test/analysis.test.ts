import { describe, expect, it } from "vitest";
import { AnalysisCache } from "../src/analysis.js";
import { TextDocument } from "../src/index.js";

describe("the analysis cache", () => {
  it("analyses a document once per version and text", () => {
    const cache = new AnalysisCache();
    const document = TextDocument.create("file:///c.mission", "mission", 1, "mission a {}");
    const first = cache.get(document);
    expect(cache.get(document)).toBe(first);
    TextDocument.update(document, [{ text: "mission b {}" }], 2);
    const second = cache.get(document);
    expect(second).not.toBe(first);
    expect(second.model.missions[0]?.name).toBe("b");
    // Same URI and version, other text (a caller that makes fresh documents): analysed again.
    expect(cache.get(TextDocument.create("file:///c.mission", "mission", 2, "mission c {}")).model.missions[0]?.name).toBe("c");
    cache.forget("file:///c.mission");
    expect(cache.get(document)).not.toBe(second);
  });
});
