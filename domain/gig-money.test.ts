import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PAYMENT, MIN_PAYMENT, totalCharge, workerPayout } from "./fees";
import { rolesOf, type GigParties } from "./gig";
import { amountInTermsOf } from "./gig-money";

const job: GigParties = { gigType: "job_request", posterId: "hana", hirerId: "hana", workerId: "wes" };
const offering: GigParties = { gigType: "service_offering", posterId: "wes", hirerId: "hugo", workerId: "wes" };

describe("a gig's amount in each reader's terms", () => {
  it("follows the spec's example: the worker receives 9,750, the hirer pays 10,250, anyone else sees 10,000", () => {
    expect(amountInTermsOf(10_000, rolesOf(job, "wes"))).toEqual({ terms: "receive", amount: 9_750, text: "You receive 9,750 sats", lead: "You receive" });
    expect(amountInTermsOf(10_000, rolesOf(job, "hana"))).toEqual({ terms: "pay", amount: 10_250, text: "You pay 10,250 sats", lead: "You pay" });
    expect(amountInTermsOf(10_000, rolesOf(job, "stranger"))).toEqual({ terms: "payment", amount: 10_000, text: "10,000 sats", lead: null });
    expect(amountInTermsOf(10_000, rolesOf(job, null)).text).toBe("10,000 sats");
  });

  it("makes the owner of a service offering its worker, and whoever hires it the hirer", () => {
    expect(amountInTermsOf(8_000, rolesOf(offering, "wes")).text).toBe("You receive 7,800 sats");
    expect(amountInTermsOf(8_000, rolesOf(offering, "hugo")).text).toBe("You pay 8,200 sats");
    // Before anyone hires it, a member reading the offer sees its price.
    expect(amountInTermsOf(8_000, rolesOf({ ...offering, hirerId: null }, "hugo")).text).toBe("8,000 sats");
  });

  it("a job's hirer pays before anyone claims it", () => {
    expect(amountInTermsOf(10_000, rolesOf({ ...job, workerId: null }, "hana")).text).toBe("You pay 10,250 sats");
  });

  it("shows a cancelled gig's payment to everyone: nobody pays or receives anything for it any more", () => {
    expect(amountInTermsOf(10_000, rolesOf(job, "hana"), "cancelled").text).toBe("10,000 sats");
    expect(amountInTermsOf(10_000, rolesOf(job, "wes"), "cancelled").text).toBe("10,000 sats");
    expect(amountInTermsOf(10_000, rolesOf(job, "hana"), "pending_payment").text).toBe("You pay 10,250 sats");
    expect(amountInTermsOf(10_000, rolesOf(job, "wes"), "completed").text).toBe("You receive 9,750 sats");
    // Once completed the hirer has paid: the escrow was released.
    expect(amountInTermsOf(10_000, rolesOf(job, "hana"), "completed").text).toBe("You paid 10,250 sats");
  });

  it("agrees with the fee rules for every payment", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_PAYMENT, max: MAX_PAYMENT }), (payment) => {
        expect(amountInTermsOf(payment, ["worker"]).amount).toBe(workerPayout(payment));
        expect(amountInTermsOf(payment, ["owner", "hirer"]).amount).toBe(totalCharge(payment));
        expect(amountInTermsOf(payment, ["member"]).amount).toBe(payment);
      }),
    );
  });

  it("shows an amount the fee rules do not accept as it is, rather than failing", () => {
    expect(amountInTermsOf(0, ["worker"])).toMatchObject({ terms: "payment", text: "0 sats" });
  });
});
