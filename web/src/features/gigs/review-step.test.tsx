import { waitFor, within } from "@testing-library/react";
import { nsecEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event } from "nostr-tools/pure";
import { afterEach, describe, expect, it } from "vitest";
import { REVIEW_KIND } from "../../../../domain/nostr-review";
import type { NostrEventTemplate } from "../../lib/nostr";
import { apiError } from "../../test/mock-api";
import { findToast, toastRegion } from "../../test/render";
import { makeGig } from "./gig-factories";
import { MY_USERNAME, openGigModal } from "./gig-test-harness";
import { REVIEW_SIGNATURE_TEXTS } from "./review-signature";
import type { Gig } from "./types";

const base = (over: Partial<Gig> = {}) =>
  makeGig({ id: "gig-r", title: "Newsletter copy", posterId: "hirer", hirerId: "hirer", workerId: "worker", escrowStatus: "funded", ...over });

const review = (over: object = {}) => ({
  id: "r-1",
  gigId: "gig-r",
  rating: 5,
  comment: null,
  revieweeId: "worker",
  createdAt: new Date().toISOString(),
  reviewerName: "Me",
  reviewerPicture: null,
  reviewerUsername: MY_USERNAME,
  ...over,
});

describe("the review step", () => {
  it("follows the worker's submission: 5 stars by default, the keyboard moves the rating, the hirer is the reviewee", async () => {
    let gig = base({ status: "in_progress" });
    const { dialog, user, api } = await openGigModal(gig, "worker", {
      "GET /api/gigs/gig-r": () => gig,
      "GET /api/reviews/user/hirer": () => [],
      "POST /api/gigs/gig-r/submit": () => {
        gig = { ...gig, status: "work_submitted", workSubmission: "Three issues drafted", submittedAt: new Date().toISOString() };
        return { success: true };
      },
      "POST /api/gigs/gig-r/review": () => new Response(JSON.stringify({ id: "r-9" }), { status: 201 }),
    });
    await user.type(within(dialog).getByLabelText("Submit your work"), "Three issues drafted");
    await user.click(within(dialog).getByRole("button", { name: "Submit Work" }));
    expect(await findToast("Work Submitted")).toBeInTheDocument();

    const form = await within(dialog).findByRole("form", { name: "Review the hirer" });
    expect(form).toHaveTextContent("Work submitted.");
    const stars = within(form).getByRole("group", { name: "Your rating of the hirer" });
    expect(within(stars).getAllByRole("radio")).toHaveLength(5);
    const five = within(stars).getByRole("radio", { name: "5 stars" });
    expect(five).toBeChecked();

    five.focus();
    await user.keyboard("{ArrowLeft}");
    expect(within(stars).getByRole("radio", { name: "4 stars" })).toBeChecked();
    await user.type(within(form).getByLabelText(/Comment/), " Quick answers, clear brief ");
    await user.click(within(form).getByRole("button", { name: "Submit Unsigned" }));

    expect(await findToast("Review Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 4, comment: "Quick answers, clear brief", revieweeId: "hirer" });
    await waitFor(() => expect(within(dialog).queryByRole("form", { name: "Review the hirer" })).not.toBeInTheDocument());
    expect(within(dialog).queryByRole("button", { name: "Leave a Review" })).not.toBeInTheDocument();
  });

  it("follows the hirer's approval and sends 5 stars about the worker; 'already submitted' is ignored", async () => {
    let gig = base({ status: "work_submitted", workSubmission: "Done" });
    const { dialog, user, api } = await openGigModal(gig, "hirer", {
      "GET /api/gigs/gig-r": () => gig,
      "GET /api/reviews/user/worker": () => [],
      "POST /api/gigs/gig-r/approve": () => {
        gig = { ...gig, status: "completed", escrowStatus: "released" };
        return { success: true };
      },
      "POST /api/gigs/gig-r/review": () => apiError(409, "You have already submitted a review for this gig", "review_already_submitted"),
    });
    await user.click(await within(dialog).findByRole("button", { name: /Approve & Release Payment/ }));
    expect(await findToast("Work Approved")).toBeInTheDocument();

    const form = await within(dialog).findByRole("form", { name: "Review the worker" });
    expect(form).toHaveTextContent("Work approved and payment released.");
    await user.click(within(form).getByRole("button", { name: "Submit Unsigned" }));

    await waitFor(() => expect(within(dialog).queryByRole("form", { name: "Review the worker" })).not.toBeInTheDocument());
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 5, revieweeId: "worker" });
    expect(toastRegion().queryByText(/Failed|already submitted/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Download Receipt" })).toBeInTheDocument();
  });

  it("can be skipped after the action and left later from the details", async () => {
    let gig = base({ status: "work_submitted" });
    const { dialog, user, api } = await openGigModal(gig, "hirer", {
      "GET /api/gigs/gig-r": () => gig,
      "GET /api/reviews/user/worker": () => [],
      "POST /api/gigs/gig-r/approve": () => {
        gig = { ...gig, status: "completed" };
        return { success: true };
      },
      "POST /api/gigs/gig-r/review": () => new Response(JSON.stringify({ id: "r-2" }), { status: 201 }),
    });
    await user.click(await within(dialog).findByRole("button", { name: /Approve & Release Payment/ }));
    const form = await within(dialog).findByRole("form", { name: "Review the worker" });
    await user.click(within(form).getByRole("button", { name: "Skip for Now" }));
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(0);

    await user.click(within(dialog).getByRole("button", { name: "Leave a Review" }));
    const later = within(dialog).getByRole("form", { name: "Review the worker" });
    await user.click(within(later).getByRole("radio", { name: "2 stars" }));
    await user.click(within(later).getByRole("button", { name: "Submit Unsigned" }));
    expect(await findToast("Review Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 2, revieweeId: "worker" });
  });

  it.each(["completed", "work_submitted", "disputed"] as const)("is offered later on a %s gig until the member has reviewed", async (status) => {
    const { dialog, user, api } = await openGigModal(base({ status }), "worker", {
      "GET /api/reviews/user/hirer": () => [review({ gigId: "another-gig", revieweeId: "hirer" }), review({ gigId: "gig-r", reviewerUsername: "npub1someoneelse" })],
      "POST /api/gigs/gig-r/review": () => apiError(409, "You have already submitted a review for this gig", "review_already_submitted"),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Unsigned" }));
    await waitFor(() => expect(within(dialog).queryByRole("form", { name: "Review the hirer" })).not.toBeInTheDocument());
    expect(within(dialog).queryByRole("button", { name: "Leave a Review" })).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 5, revieweeId: "hirer" });
  });

  it("is not offered once the member's review of this gig is on record", async () => {
    const { dialog, api } = await openGigModal(base({ status: "completed" }), "hirer", { "GET /api/reviews/user/worker": () => [review()] });
    await waitFor(() => expect(api.callsTo("GET", "/api/reviews/user/worker")).toHaveLength(1));
    await within(dialog).findByRole("button", { name: "Download Receipt" });
    expect(within(dialog).queryByRole("button", { name: "Leave a Review" })).not.toBeInTheDocument();
  });

  it("shows the server's Invalid Rating and other failures as toasts, keeping the form", async () => {
    let answer = apiError(400, "Invalid Rating: Please select a rating between 1 and 5 stars.", "validation_error");
    const { dialog, user } = await openGigModal(base({ status: "completed" }), "worker", {
      "GET /api/reviews/user/hirer": () => [],
      "POST /api/gigs/gig-r/review": () => answer,
    });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Unsigned" }));
    expect(await findToast("Invalid Rating")).toBeInTheDocument();
    expect(await findToast("Please select a rating between 1 and 5 stars.")).toBeInTheDocument();

    answer = apiError(403, "You can only review the other party of this gig", "invalid_reviewee");
    await user.click(within(dialog).getByRole("button", { name: "Submit Unsigned" }));
    expect(await findToast("Failed to Submit Review")).toBeInTheDocument();
    expect(within(dialog).getByRole("form", { name: "Review the hirer" })).toBeInTheDocument();
  });

  it("is offered to nobody but the two parties, and not before the work is submitted", async () => {
    const first = await openGigModal(base({ status: "completed" }), "stranger");
    expect(within(first.dialog).queryByRole("button", { name: "Leave a Review" })).not.toBeInTheDocument();
    expect(first.api.callsTo("GET", "/api/reviews/user/hirer")).toHaveLength(0);
  });
});

describe("the rating rule", () => {
  it("turns a rating outside 1-5 into the Invalid Rating toast text", async () => {
    const { reviewSchema } = await import("../../../../domain/collaboration-schemas");
    const { splitMessage } = await import("./review-step");
    for (const rating of [0, 6, 2.5]) {
      const check = reviewSchema.safeParse({ rating, revieweeId: "x" });
      expect(check.success).toBe(false);
      expect(splitMessage(check.error!.issues[0]!.message)).toEqual({ title: "Invalid Rating", description: "Please select a rating between 1 and 5 stars." });
    }
  });
});

describe("the signed review (anyone can verify it)", () => {
  const myKey = generateSecretKey();
  const me = { nostrPubkey: getPublicKey(myKey) };
  const hirerPubkey = getPublicKey(generateSecretKey());
  const platform = getPublicKey(generateSecretKey());
  const config = (platformPubkey: string | null) => () => ({
    aliasDomain: "gigstr.test",
    lightningBackend: "dev",
    platformFeePercent: 2.5,
    nostr: { platformPubkey, relays: ["ws://127.0.0.1:7777"] },
  });
  const routes = (answer: () => unknown = () => new Response(JSON.stringify({ id: "r-9" }), { status: 201 })) => ({
    "GET /api/config": config(platform),
    "GET /api/reviews/user/hirer": () => [],
    "GET /api/users/hirer": () => ({ id: "hirer", nostrPubkey: hirerPubkey }),
    "POST /api/gigs/gig-r/review": answer,
  });

  /** A NIP-07 extension holding `key`: it signs whatever it is asked to (or refuses, with `refuse`). */
  function installExtension(key: Uint8Array, refuse?: string) {
    window.nostr = {
      getPublicKey: async () => getPublicKey(key),
      signEvent: async (template: NostrEventTemplate) => {
        if (refuse) throw new Error(refuse);
        return finalizeEvent(template, key);
      },
    };
  }
  afterEach(() => {
    delete window.nostr;
  });

  const sentEvent = (api: Awaited<ReturnType<typeof openGigModal>>["api"]) => (api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body as { event?: Event }).event;

  it("is signed by the member's extension and sent with the review: kind 1985 naming the hirer, the gig's listing, the rating and the text", async () => {
    installExtension(myKey);
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", routes(), { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    const form = within(dialog).getByRole("form", { name: "Review the hirer" });
    expect(form).toHaveTextContent("Your extension signs this review with your Nostr key, so anyone can verify it.");
    await user.click(within(form).getByRole("radio", { name: "4 stars" }));
    await user.type(within(form).getByLabelText(/Comment/), "Clear brief");
    await user.click(within(form).getByRole("button", { name: "Submit Review" }));

    expect(await findToast(/signed with your Nostr key/)).toBeInTheDocument();
    const body = api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ rating: 4, comment: "Clear brief", revieweeId: "hirer" });
    const event = body.event as Event;
    expect(verifyEvent(event)).toBe(true);
    expect(event).toMatchObject({ kind: REVIEW_KIND, pubkey: me.nostrPubkey, content: "Clear brief" });
    expect(event.tags).toEqual(expect.arrayContaining([["p", hirerPubkey], ["a", `30402:${platform}:gig-r`], ["rating", "0.8"], ["l", "hirer", "gigstr"]]));
  });

  it("names the gig's page instead while the platform publishes nothing", async () => {
    installExtension(myKey);
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", { ...routes(), "GET /api/config": config(null) }, { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
    await findToast("Review Submitted");
    const event = sentEvent(api)!;
    expect(event.tags).toContainEqual(["i", `${location.origin}/gig/gig-r`]);
    expect(event.tags.some((t) => t[0] === "a")).toBe(false);
  });

  it("when the extension does not sign, says why and offers the private key or sending it unsigned", async () => {
    installExtension(myKey, "User rejected");
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", routes(), { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
    const form = within(dialog).getByRole("form", { name: "Review the hirer" });
    expect(await within(form).findByRole("alert")).toHaveTextContent("Your extension did not sign: User rejected");
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(0);
    expect(within(form).getByLabelText("Your private key (nsec or hex)")).toHaveAttribute("type", "password");

    await user.click(within(form).getByRole("button", { name: "Submit Unsigned" }));
    expect(await findToast("Review Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 5, revieweeId: "hirer" });
  });

  it("with nothing to sign with (a With Key login), says so; the member's own key signs this one review and is never sent", async () => {
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", routes(), { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    const form = within(dialog).getByRole("form", { name: "Review the hirer" });
    expect(form).toHaveTextContent(REVIEW_SIGNATURE_TEXTS.noSigner);
    expect(within(form).queryByRole("button", { name: "Submit Review" })).not.toBeInTheDocument();
    const field = within(form).getByLabelText("Your private key (nsec or hex)");
    expect(field).toHaveAttribute("type", "password");
    expect(field).toHaveAttribute("autocomplete", "off");

    // Nothing typed, then another key: refused here, nothing sent.
    await user.click(within(form).getByRole("button", { name: "Sign & Submit" }));
    expect(await within(form).findByText(REVIEW_SIGNATURE_TEXTS.keyRequired)).toBeInTheDocument();
    await user.type(field, nsecEncode(generateSecretKey()));
    await user.click(within(form).getByRole("button", { name: "Sign & Submit" }));
    expect(await within(form).findByText(REVIEW_SIGNATURE_TEXTS.otherKey)).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(0);

    const nsec = nsecEncode(myKey);
    await user.clear(field);
    await user.type(field, nsec);
    await user.click(within(form).getByRole("button", { name: "Sign & Submit" }));
    expect(await findToast(/signed with your Nostr key/)).toBeInTheDocument();
    const event = sentEvent(api)!;
    expect(verifyEvent(event)).toBe(true);
    expect(event.pubkey).toBe(me.nostrPubkey);
    for (const call of api.calls) expect(JSON.stringify(call.body ?? "")).not.toContain(nsec);
    expect(JSON.stringify({ ...localStorage })).not.toContain(nsec);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(nsec);
  });

  it("while the signer is asked, Cancel gives up waiting and sends nothing", async () => {
    window.nostr = { getPublicKey: async () => me.nostrPubkey, signEvent: () => new Promise<never>(() => {}) };
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", routes(), { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    const form = within(dialog).getByRole("form", { name: "Review the hirer" });
    await user.click(within(form).getByRole("button", { name: "Submit Review" }));
    expect(await within(form).findByRole("button", { name: "Signing..." })).toBeDisabled();
    await user.click(within(form).getByRole("button", { name: "Cancel" }));
    expect(within(form).getByRole("button", { name: "Submit Review" })).toBeEnabled();
    expect(within(form).queryByRole("alert")).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(0);
  });

  it("a signed review the server refuses is shown, and may then go unsigned", async () => {
    installExtension(myKey);
    let answer: () => unknown = () => apiError(400, "The review is signed by another key than the one you logged in with.", "review_event_refused");
    const { dialog, user, api } = await openGigModal(base({ status: "completed" }), "worker", routes(() => answer()), { me });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
    expect(await findToast("Failed to Submit Review")).toBeInTheDocument();
    const form = within(dialog).getByRole("form", { name: "Review the hirer" });
    expect(await within(form).findByRole("alert")).toHaveTextContent("signed by another key");

    answer = () => new Response(JSON.stringify({ id: "r-9" }), { status: 201 });
    await user.click(within(form).getByRole("button", { name: "Submit Unsigned" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(2));
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[1]!.body).toEqual({ rating: 5, revieweeId: "hirer" });
  });
});
