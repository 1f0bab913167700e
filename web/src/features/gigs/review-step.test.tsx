import { waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { apiError } from "../../test/mock-api";
import { findToast, toastRegion } from "../../test/render";
import { makeGig } from "./gig-factories";
import { MY_USERNAME, openGigModal } from "./gig-test-harness";
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

    const form = await within(dialog).findByRole("form", { name: "Review the hirer" }, { timeout: 5000 });
    expect(form).toHaveTextContent("Work submitted.");
    const stars = within(form).getByRole("group", { name: "Your rating of the hirer" });
    expect(within(stars).getAllByRole("radio")).toHaveLength(5);
    const five = within(stars).getByRole("radio", { name: "5 stars" });
    expect(five).toBeChecked();

    five.focus();
    await user.keyboard("{ArrowLeft}");
    expect(within(stars).getByRole("radio", { name: "4 stars" })).toBeChecked();
    await user.type(within(form).getByLabelText(/Comment/), " Quick answers, clear brief ");
    await user.click(within(form).getByRole("button", { name: "Submit Review" }));

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

    const form = await within(dialog).findByRole("form", { name: "Review the worker" }, { timeout: 5000 });
    expect(form).toHaveTextContent("Work approved and payment released.");
    await user.click(within(form).getByRole("button", { name: "Submit Review" }));

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
    const form = await within(dialog).findByRole("form", { name: "Review the worker" }, { timeout: 5000 });
    await user.click(within(form).getByRole("button", { name: "Skip for Now" }));
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")).toHaveLength(0);

    await user.click(within(dialog).getByRole("button", { name: "Leave a Review" }));
    const later = within(dialog).getByRole("form", { name: "Review the worker" });
    await user.click(within(later).getByRole("radio", { name: "2 stars" }));
    await user.click(within(later).getByRole("button", { name: "Submit Review" }));
    expect(await findToast("Review Submitted")).toBeInTheDocument();
    expect(api.callsTo("POST", "/api/gigs/gig-r/review")[0]!.body).toEqual({ rating: 2, revieweeId: "worker" });
  });

  it.each(["completed", "work_submitted", "disputed"] as const)("is offered later on a %s gig until the member has reviewed", async (status) => {
    const { dialog, user, api } = await openGigModal(base({ status }), "worker", {
      "GET /api/reviews/user/hirer": () => [review({ gigId: "another-gig", revieweeId: "hirer" }), review({ gigId: "gig-r", reviewerUsername: "npub1someoneelse" })],
      "POST /api/gigs/gig-r/review": () => apiError(409, "You have already submitted a review for this gig", "review_already_submitted"),
    });
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }, { timeout: 5000 }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
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
    await user.click(await within(dialog).findByRole("button", { name: "Leave a Review" }, { timeout: 5000 }));
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
    expect(await findToast("Invalid Rating")).toBeInTheDocument();
    expect(await findToast("Please select a rating between 1 and 5 stars.")).toBeInTheDocument();

    answer = apiError(403, "You can only review the other party of this gig", "invalid_reviewee");
    await user.click(within(dialog).getByRole("button", { name: "Submit Review" }));
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
