import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { mockApi } from "../../test/mock-api";
import { renderWithApp } from "../../test/render";
import { gigApi, useGigMutation } from "./gig-api";

describe("useGigMutation", () => {
  it("runs a call's handlers even when the button that started it is gone by then", async () => {
    let finish!: (value: string) => void;
    const action = () => new Promise<string>((resolve) => (finish = resolve));
    const onSuccess = vi.fn();

    function ActionButton() {
      const run = useGigMutation(action);
      return <button onClick={() => run.mutate(undefined, { onSuccess })}>Act</button>;
    }
    function Host() {
      const [shown, setShown] = useState(true);
      return (
        <>
          {shown && <ActionButton />}
          <button onClick={() => setShown(false)}>Move on</button>
        </>
      );
    }

    renderWithApp(<Host />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Act" }));
    await user.click(screen.getByRole("button", { name: "Move on" }));
    expect(screen.queryByRole("button", { name: "Act" })).not.toBeInTheDocument();
    await act(async () => finish("done"));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith("done"));
  });
});

describe("the work actions of a gig paid in milestones", () => {
  const ok = () => ({ success: true });

  it("name the current milestone in the route, so a screen that is behind gets 409 rather than acting on another", async () => {
    const api = mockApi({
      "POST /api/gigs/g%201/milestones/2/start-work": ok,
      "POST /api/gigs/g%201/milestones/2/submit": ok,
      "POST /api/gigs/g%201/milestones/2/approve": ok,
      "POST /api/gigs/g%201/milestones/2/request-revision": ok,
      "POST /api/gigs/g%201/milestones/2/dispute": ok,
    });
    await gigApi.startWork("g 1", 2);
    await gigApi.submitWork("g 1", "Done", [], 2);
    await gigApi.approve("g 1", 2);
    await gigApi.requestRevision("g 1", "More", 2);
    await gigApi.dispute("g 1", "Missing", 2);
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /api/gigs/g%201/milestones/2/start-work",
      "POST /api/gigs/g%201/milestones/2/submit",
      "POST /api/gigs/g%201/milestones/2/approve",
      "POST /api/gigs/g%201/milestones/2/request-revision",
      "POST /api/gigs/g%201/milestones/2/dispute",
    ]);
    expect(api.calls.map((c) => c.body)).toEqual([undefined, { workSubmission: "Done", attachments: [] }, undefined, { note: "More" }, { reason: "Missing" }]);
  });

  it("keep the gig's own routes for a gig without a plan", async () => {
    const api = mockApi({ "POST /api/gigs/g1/start-work": ok, "POST /api/gigs/g1/approve": ok });
    await gigApi.startWork("g1");
    await gigApi.approve("g1");
    expect(api.calls.map((c) => c.path)).toEqual(["/api/gigs/g1/start-work", "/api/gigs/g1/approve"]);
  });

  it("fund a milestone and send and answer plan changes", async () => {
    const api = mockApi({
      "POST /api/gigs/g1/milestones/3/fund": () => ({ paymentRequest: "lnbcrt1", totalCharge: 5_125, milestone: 3 }),
      "POST /api/gigs/g1/milestone-proposals": () => ({ id: "p1", fromNumber: 2, milestones: [], status: "pending" }),
      "POST /api/gigs/g1/milestone-proposals/p1/accept": () => ({ id: "p1", status: "accepted" }),
    });
    expect(await gigApi.fundMilestone("g1", 3)).toEqual({ paymentRequest: "lnbcrt1", totalCharge: 5_125, milestone: 3 });
    await gigApi.proposeMilestones("g1", [{ title: "Build", amount: 4_000, days: null }]);
    await gigApi.answerMilestoneProposal("g1", "p1", "accept");
    expect(api.callsTo("POST", "/api/gigs/g1/milestone-proposals")[0]!.body).toEqual({ milestones: [{ title: "Build", amount: 4_000, days: null }] });
    expect(api.callsTo("POST", "/api/gigs/g1/milestone-proposals/p1/accept")).toHaveLength(1);
  });
});

