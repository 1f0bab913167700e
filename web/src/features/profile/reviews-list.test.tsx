import { screen, within } from "@testing-library/react";
import { neventEncode } from "nostr-tools/nip19";
import { describe, expect, it } from "vitest";
import { renderWithApp } from "../../test/render";
import { ReviewsList } from "./reviews-list";
import type { Review } from "./types";

const review = (over: Partial<Review>): Review => ({
  id: "r1",
  rating: 4,
  comment: "Clear brief",
  revieweeId: "u-7",
  createdAt: "2026-11-10T00:00:00Z",
  reviewerName: "Alice",
  reviewerPicture: null,
  reviewerUsername: "npub1alice",
  ...over,
});

describe("the profile's reviews", () => {
  it("marks a review signed on Nostr as Verified, with a nostr: link to its event; an unsigned one shows neither", () => {
    const nevent = neventEncode({ id: "ab".repeat(32), kind: 1985, author: "cd".repeat(32), relays: ["wss://relay.example"] });
    renderWithApp(
      <ReviewsList
        reviews={[
          review({ id: "signed", verified: true, nostrEventId: "ab".repeat(32), nevent }),
          review({ id: "unsigned", reviewerName: "Bob", reviewerUsername: "npub1bob", comment: "Fine", verified: false, nostrEventId: null, nevent: null }),
          review({ id: "older", reviewerName: "Carol", reviewerUsername: "npub1carol", comment: "Old answer" }),
        ]}
      />,
    );
    const [signed, unsigned, older] = screen.getAllByRole("listitem");
    expect(within(signed!).getByText("Verified")).toBeInTheDocument();
    const link = within(signed!).getByRole("link", { name: "Signed on Nostr" });
    expect(link).toHaveAttribute("href", `nostr:${nevent}`);

    for (const item of [unsigned!, older!]) {
      expect(within(item).queryByText("Verified")).not.toBeInTheDocument();
      expect(within(item).queryByRole("link", { name: "Signed on Nostr" })).not.toBeInTheDocument();
      expect(within(item).getByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
    }
  });
});
