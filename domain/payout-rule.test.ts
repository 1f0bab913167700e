import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AttemptFacts,
  type AttemptVerdict,
  type LookupAnswer,
  type PayAnswer,
  markFailedAllowed,
  neverSent,
  nextPayoutStep,
  verdictAfterLookup,
  verdictOfPayAnswer,
} from "./payout-rule";

const VERDICTS: readonly AttemptVerdict[] = ["sending", "paid", "not_sent", "in_doubt", "marked_failed"];
const NEVER_SENT_VERDICTS: readonly AttemptVerdict[] = ["not_sent", "marked_failed"];
const MAY_HAVE_SENT_VERDICTS: readonly AttemptVerdict[] = ["sending", "in_doubt"];
const LOOKUP_ANSWERS: readonly LookupAnswer[] = ["succeeded", "failed", "pending", "unknown", "not_found"];

/** One attempt: the hash of its invoice, what is known of it, and whether its wallet call may still be running. */
function attempt(paymentHash: string, verdict: AttemptVerdict, running = false): AttemptFacts {
  return { paymentHash, verdict, running };
}

/** A payout's attempts, in the order they were made, each with its own hash (hash-0, hash-1, …). */
function attemptsOf(verdicts: fc.Arbitrary<AttemptVerdict>, maxLength = 6): fc.Arbitrary<AttemptFacts[]> {
  return fc
    .array(fc.record({ verdict: verdicts, running: fc.boolean() }), { maxLength })
    .map((facts) => facts.map((f, i) => attempt(`hash-${i}`, f.verdict, f.running)));
}

const anyVerdict = fc.constantFrom(...VERDICTS);
const anyAttempts = attemptsOf(anyVerdict);
const mayHaveSent = (a: AttemptFacts) => !NEVER_SENT_VERDICTS.includes(a.verdict);

describe("which verdicts are known never to have sent money", () => {
  it("counts only a refusal before sending (not_sent) and the admin's mark (marked_failed)", () => {
    expect(neverSent("not_sent")).toBe(true);
    expect(neverSent("marked_failed")).toBe(true);
    expect(neverSent("sending")).toBe(false);
    expect(neverSent("in_doubt")).toBe(false);
    expect(neverSent("paid")).toBe(false);
  });
});

describe("the next step of a payout", () => {
  it("pays a new invoice when there was no attempt yet", () => {
    expect(nextPayoutStep([])).toEqual({ kind: "pay_new" });
  });

  it("pays a new invoice after attempts that were all refused or marked failed", () => {
    expect(nextPayoutStep([attempt("a", "not_sent"), attempt("b", "marked_failed")])).toEqual({ kind: "pay_new" });
  });

  it("pays a new invoice even if a refused attempt's claim is still live: it cannot send money any more", () => {
    expect(nextPayoutStep([attempt("a", "not_sent", true), attempt("b", "marked_failed", true)])).toEqual({ kind: "pay_new" });
  });

  it("settles on the paid attempt and never pays again", () => {
    expect(nextPayoutStep([attempt("a", "not_sent"), attempt("b", "paid"), attempt("c", "in_doubt", true)])).toEqual({
      kind: "settle",
      paymentHash: "b",
    });
  });

  it("settles on the first paid attempt if a wallet ever said two were paid", () => {
    expect(nextPayoutStep([attempt("a", "in_doubt"), attempt("b", "paid"), attempt("c", "paid")])).toEqual({
      kind: "settle",
      paymentHash: "b",
    });
  });

  it("waits while an attempt that may have sent money is still running", () => {
    expect(nextPayoutStep([attempt("a", "sending", true)])).toEqual({ kind: "wait" });
    expect(nextPayoutStep([attempt("a", "not_sent"), attempt("b", "in_doubt", true)])).toEqual({ kind: "wait" });
    expect(nextPayoutStep([attempt("a", "in_doubt"), attempt("b", "sending", true)])).toEqual({ kind: "wait" });
  });

  it("looks up, and pays nothing, when an attempt that may have sent money has stopped running", () => {
    expect(nextPayoutStep([attempt("a", "sending")])).toEqual({ kind: "look_up", paymentHashes: ["a"] });
    expect(nextPayoutStep([attempt("a", "in_doubt")])).toEqual({ kind: "look_up", paymentHashes: ["a"] });
  });

  it("looks up exactly the attempts that may have sent money, in the order they were made", () => {
    const attempts = [
      attempt("first", "in_doubt"),
      attempt("refused", "not_sent", true),
      attempt("second", "sending"),
      attempt("checked", "marked_failed"),
      attempt("third", "in_doubt"),
    ];
    expect(nextPayoutStep(attempts)).toEqual({ kind: "look_up", paymentHashes: ["first", "second", "third"] });
  });

  it("pays a new invoice only when every attempt is known never to have sent money", () => {
    fc.assert(
      fc.property(anyAttempts, (attempts) => {
        const allNeverSent = attempts.every((a) => a.verdict === "not_sent" || a.verdict === "marked_failed");
        expect(nextPayoutStep(attempts).kind === "pay_new").toBe(allNeverSent);
      }),
    );
  });

  it("always settles on the first paid attempt, whatever else happened", () => {
    fc.assert(
      fc.property(anyAttempts, (attempts) => {
        const firstPaid = attempts.find((a) => a.verdict === "paid");
        fc.pre(firstPaid !== undefined);
        expect(nextPayoutStep(attempts)).toEqual({ kind: "settle", paymentHash: firstPaid!.paymentHash });
      }),
    );
  });

  it("settles only when an attempt was paid", () => {
    fc.assert(
      fc.property(anyAttempts, (attempts) => {
        const anyPaid = attempts.some((a) => a.verdict === "paid");
        expect(nextPayoutStep(attempts).kind === "settle").toBe(anyPaid);
      }),
    );
  });

  it("always waits when nothing was paid and an attempt that may have sent money is running", () => {
    fc.assert(
      fc.property(attemptsOf(fc.constantFrom<AttemptVerdict>("sending", "not_sent", "in_doubt", "marked_failed")), (attempts) => {
        const running = attempts.some((a) => a.running && mayHaveSent(a));
        expect(nextPayoutStep(attempts).kind === "wait").toBe(running);
      }),
    );
  });

  it("otherwise looks up the hashes of exactly the attempts not known never-sent, in order", () => {
    const stopped = attemptsOf(anyVerdict).map((attempts) => attempts.map((a) => ({ ...a, running: a.running && !mayHaveSent(a) })));
    fc.assert(
      fc.property(stopped, (attempts) => {
        fc.pre(attempts.every((a) => a.verdict !== "paid"));
        const doubtful = attempts.filter(mayHaveSent).map((a) => a.paymentHash);
        const expected = doubtful.length > 0 ? { kind: "look_up", paymentHashes: doubtful } : { kind: "pay_new" };
        expect(nextPayoutStep(attempts)).toEqual(expected);
      }),
    );
  });

  it("never pays a new invoice while any attempt could have sent money", () => {
    fc.assert(
      fc.property(anyAttempts, (attempts) => {
        fc.pre(attempts.some(mayHaveSent));
        expect(nextPayoutStep(attempts).kind).not.toBe("pay_new");
      }),
    );
  });
});

describe("an attempt's verdict from the wallet's answer to paying it", () => {
  it("is paid when the wallet says it succeeded", () => {
    expect(verdictOfPayAnswer("succeeded")).toBe("paid");
  });

  it("is never-sent when the wallet says it failed (a backend says failed only when nothing left)", () => {
    expect(verdictOfPayAnswer("failed")).toBe("not_sent");
  });

  it("is in doubt when the answer is unclear", () => {
    expect(verdictOfPayAnswer("unknown")).toBe("in_doubt");
  });

  it("makes the next step settle, pay again or look up accordingly", () => {
    const steps = (answer: PayAnswer) => nextPayoutStep([attempt("a", verdictOfPayAnswer(answer))]).kind;
    expect(steps("succeeded")).toBe("settle");
    expect(steps("failed")).toBe("pay_new");
    expect(steps("unknown")).toBe("look_up");
  });
});

describe("an attempt's verdict after looking its hash up", () => {
  it("becomes paid when the wallet says the payment succeeded", () => {
    expect(verdictAfterLookup("in_doubt", "succeeded")).toBe("paid");
    expect(verdictAfterLookup("sending", "succeeded")).toBe("paid");
  });

  it("becomes never-sent when the wallet says the payment failed", () => {
    expect(verdictAfterLookup("in_doubt", "failed")).toBe("not_sent");
    expect(verdictAfterLookup("sending", "failed")).toBe("not_sent");
  });

  it("stays in doubt when the payment is pending, unknown, or not found (a node may settle it late)", () => {
    for (const answer of ["pending", "unknown", "not_found"] as const) {
      expect(verdictAfterLookup("in_doubt", answer)).toBe("in_doubt");
      expect(verdictAfterLookup("sending", answer)).toBe("in_doubt");
    }
  });

  it("never turns a paid attempt into anything else", () => {
    for (const answer of LOOKUP_ANSWERS) expect(verdictAfterLookup("paid", answer)).toBe("paid");
  });

  it("never turns an attempt known never-sent into anything else", () => {
    for (const before of NEVER_SENT_VERDICTS) {
      for (const answer of LOOKUP_ANSWERS) expect(verdictAfterLookup(before, answer)).toBe(before);
    }
  });

  it("for any attempt that may have sent money, depends on the answer alone", () => {
    fc.assert(
      fc.property(fc.constantFrom(...MAY_HAVE_SENT_VERDICTS), fc.constantFrom(...LOOKUP_ANSWERS), (before, answer) => {
        const expected = answer === "succeeded" ? "paid" : answer === "failed" ? "not_sent" : "in_doubt";
        expect(verdictAfterLookup(before, answer)).toBe(expected);
      }),
    );
  });

  it("never lets a look-up turn a settled payout into one that pays again", () => {
    fc.assert(
      fc.property(anyAttempts, fc.array(fc.constantFrom(...LOOKUP_ANSWERS), { minLength: 6, maxLength: 6 }), (attempts, answers) => {
        fc.pre(nextPayoutStep(attempts).kind === "settle");
        const after = attempts.map((a, i) => ({ ...a, verdict: verdictAfterLookup(a.verdict, answers[i]!) }));
        expect(nextPayoutStep(after).kind).toBe("settle");
      }),
    );
  });
});

describe("the admin's Mark failed", () => {
  const inDoubt = [attempt("a", "in_doubt"), attempt("refused", "not_sent"), attempt("b", "sending")];

  it("is allowed on a payout in doubt naming exactly the hashes in doubt", () => {
    expect(markFailedAllowed(inDoubt, ["a", "b"])).toBe("ok");
  });

  it("does not care about the order of the named hashes, nor about a hash named twice", () => {
    expect(markFailedAllowed(inDoubt, ["b", "a"])).toBe("ok");
    expect(markFailedAllowed(inDoubt, ["a", "b", "a"])).toBe("ok");
  });

  it("refuses when a hash in doubt is not named (one appeared since the admin checked)", () => {
    expect(markFailedAllowed(inDoubt, ["a"])).toBe("hashes_mismatch");
    expect(markFailedAllowed(inDoubt, [])).toBe("hashes_mismatch");
  });

  it("refuses when a named hash is not in doubt", () => {
    expect(markFailedAllowed(inDoubt, ["a", "b", "refused"])).toBe("hashes_mismatch");
    expect(markFailedAllowed(inDoubt, ["a", "c"])).toBe("hashes_mismatch");
  });

  it("refuses while an attempt that may have sent money is running", () => {
    expect(markFailedAllowed([attempt("a", "in_doubt"), attempt("b", "sending", true)], ["a", "b"])).toBe("running");
  });

  it("refuses on a payout that is not in doubt: paid, or free to pay again", () => {
    expect(markFailedAllowed([attempt("a", "paid")], ["a"])).toBe("not_in_doubt");
    expect(markFailedAllowed([attempt("a", "not_sent")], ["a"])).toBe("not_in_doubt");
    expect(markFailedAllowed([], [])).toBe("not_in_doubt");
  });

  it("is allowed for every payout in doubt when the admin names its doubtful hashes in any order, with repeats", () => {
    const named = (attempts: AttemptFacts[]) => {
      const step = nextPayoutStep(attempts);
      return step.kind === "look_up" ? step.paymentHashes : [];
    };
    fc.assert(
      fc.property(
        anyAttempts.chain((attempts) =>
          fc.tuple(fc.constant(attempts), fc.shuffledSubarray([...named(attempts), ...named(attempts)], { minLength: 0 })),
        ),
        ([attempts, extra]) => {
          const doubtful = named(attempts);
          fc.pre(doubtful.length > 0);
          // every doubtful hash, in reverse, plus any repeats
          expect(markFailedAllowed(attempts, [...[...doubtful].reverse(), ...extra])).toBe("ok");
        },
      ),
    );
  });

  it("answers ok only when the named hashes are, as a set, the hashes in doubt", () => {
    const hashes = fc.array(fc.constantFrom<string>("hash-0", "hash-1", "hash-2", "hash-3", "other"), { maxLength: 6 });
    fc.assert(
      fc.property(anyAttempts, hashes, (attempts, named) => {
        const step = nextPayoutStep(attempts);
        const answer = markFailedAllowed(attempts, named);
        if (step.kind === "wait") expect(answer).toBe("running");
        else if (step.kind !== "look_up") expect(answer).toBe("not_in_doubt");
        else {
          const same = new Set(named).size === new Set(step.paymentHashes).size && step.paymentHashes.every((h) => named.includes(h));
          expect(answer).toBe(same ? "ok" : "hashes_mismatch");
        }
      }),
    );
  });
});
