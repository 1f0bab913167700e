import { describe, expect, it } from "vitest";
import { budgetBandOfRange } from "../../../../domain/gig";
import { BUDGET_BANDS, browseParams, DEFAULT_BROWSE_FILTERS } from "./browse-query";

describe("browseParams", () => {
  it("sends each budget band as the range of the band the worker indexes", () => {
    const sent = BUDGET_BANDS.map((b) => {
      const p = browseParams({ ...DEFAULT_BROWSE_FILTERS, budget: b.value });
      return [p.minPayment, p.maxPayment];
    });
    expect(sent).toEqual([
      [undefined, undefined],
      [undefined, "9999"],
      ["10000", "50000"],
      ["50001", "100000"],
      ["100001", undefined],
    ]);
    // Every band but "All" lies within one indexed band, so its page reads about its own rows.
    const bands = sent.slice(1).map(([min, max]) => budgetBandOfRange(min === undefined ? undefined : Number(min), max === undefined ? undefined : Number(max)));
    expect(bands).toEqual([0, 1, 2, 3]);
  });

  it("asks for open gigs, the type, category and trimmed search term", () => {
    expect(browseParams({ gigType: "job_request", category: "Design", budget: "all", q: "  logo  " })).toEqual({
      status: "open",
      gigType: "job_request",
      category: "Design",
      q: "logo",
      limit: "24",
    });
  });
});
