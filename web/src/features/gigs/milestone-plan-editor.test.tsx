import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import type { GigType } from "../../../../domain/gig";
import { initialMilestoneRows, MilestonePlanEditor, MilestonePlanPreview, type MilestoneRowErrors } from "./milestone-plan-editor";

/** The editor with its rows held as the form holds them. */
function Harness({ gigType = "job_request", on: initialOn = false, rowErrors = [] }: { gigType?: GigType; on?: boolean; rowErrors?: MilestoneRowErrors[] }) {
  const [on, setOn] = useState(initialOn);
  const [rows, setRows] = useState(initialMilestoneRows);
  return <MilestonePlanEditor gigType={gigType} on={on} onToggle={setOn} rows={rows} onRowsChange={setRows} onTouch={() => undefined} rowErrors={rowErrors} />;
}

const titles = () => screen.queryAllByLabelText(/^Milestone \d+ title$/);

describe("the milestone plan editor", () => {
  it("is a switch off by default that says what milestones mean; on, it shows two labelled rows", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const toggle = screen.getByRole("switch", { name: "Pay in milestones" });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription("Each milestone is funded, delivered and paid on its own. You fund the first one now.");
    expect(titles()).toHaveLength(0);

    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(titles()).toHaveLength(2);
    for (const n of [1, 2]) {
      expect(screen.getByLabelText(`Milestone ${n} title`)).toBeInTheDocument();
      expect(screen.getByLabelText(`Milestone ${n} amount (sats)`)).toBeInTheDocument();
      expect(screen.getByLabelText(`Milestone ${n} days`)).toBeInTheDocument();
    }
    expect(screen.getByText("Milestone 2 of 2")).toBeInTheDocument();
    expect(screen.getByText("2 milestones · 0 sats")).toBeInTheDocument();

    // The keyboard turns it off again.
    toggle.focus();
    await user.keyboard(" ");
    expect(toggle).not.toBeChecked();
    expect(titles()).toHaveLength(0);
  });

  it("tells a service offering's worker who funds the milestones", () => {
    render(<Harness gigType="service_offering" />);
    expect(screen.getByRole("switch", { name: "Pay in milestones" })).toHaveAccessibleDescription(
      "The hirer funds milestone 1 when they hire you, and each next one as the work goes on.",
    );
  });

  it("adds rows up to 10, each new title taking the focus, then Add milestone is off", async () => {
    const user = userEvent.setup();
    render(<Harness on />);
    const add = screen.getByRole("button", { name: "Add milestone" });
    for (let n = 3; n <= 10; n++) {
      await user.click(add);
      expect(titles()).toHaveLength(n);
      expect(screen.getByLabelText(`Milestone ${n} title`)).toHaveFocus();
    }
    expect(add).toBeDisabled();
    expect(screen.getByText("A plan has at most 10 milestones.")).toBeInTheDocument();
    expect(screen.getByText("Milestone 10 of 10")).toBeInTheDocument();
  });

  it("removes a row down to two; the rows after it move up and the focus stays in the list", async () => {
    const user = userEvent.setup();
    render(<Harness on />);
    expect(screen.getByRole("button", { name: "Remove milestone 1" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Remove milestone 2" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Add milestone" }));
    await user.type(screen.getByLabelText("Milestone 1 title"), "Design");
    await user.type(screen.getByLabelText("Milestone 2 title"), "Build");
    await user.type(screen.getByLabelText("Milestone 3 title"), "Launch");
    await user.type(screen.getByLabelText("Milestone 3 amount (sats)"), "15000");
    await user.type(screen.getByLabelText("Milestone 3 days"), "3");

    await user.click(screen.getByRole("button", { name: "Remove milestone 2" }));
    expect(titles().map((input) => (input as HTMLInputElement).value)).toEqual(["Design", "Launch"]);
    expect(screen.getByLabelText("Milestone 2 amount (sats)")).toHaveValue(15_000);
    expect(screen.getByLabelText("Milestone 2 days")).toHaveValue(3);
    expect(screen.getByLabelText("Milestone 2 title")).toHaveFocus();
    expect(screen.getByRole("button", { name: "Remove milestone 2" })).toBeDisabled();
  });

  it("adds the amounts up in its summary line", async () => {
    const user = userEvent.setup();
    render(<Harness on />);
    await user.click(screen.getByRole("button", { name: "Add milestone" }));
    await user.type(screen.getByLabelText("Milestone 1 amount (sats)"), "20000");
    await user.type(screen.getByLabelText("Milestone 2 amount (sats)"), "25000");
    expect(screen.getByText("3 milestones · 45,000 sats")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Milestone 3 amount (sats)"), "15000");
    expect(screen.getByText("3 milestones · 60,000 sats")).toBeInTheDocument();
  });

  it("shows each error beside its field and marks the field invalid", () => {
    render(<Harness on rowErrors={[{ title: "Milestone title is required" }, { amount: "Each milestone needs an amount of at least 1 sat", days: "Milestone days must be from 1 to 30" }]} />);
    const title1 = screen.getByLabelText("Milestone 1 title");
    expect(title1).toHaveAttribute("aria-invalid", "true");
    expect(title1).toHaveAccessibleDescription("Milestone title is required");
    expect(screen.getByLabelText("Milestone 2 amount (sats)")).toHaveAccessibleDescription("Each milestone needs an amount of at least 1 sat");
    expect(screen.getByLabelText("Milestone 2 days")).toHaveAccessibleDescription("Milestone days must be from 1 to 30");
    expect(screen.getByLabelText("Milestone 2 title")).toHaveAttribute("aria-invalid", "false");
  });
});

describe("the plan in the preview", () => {
  it("lists each milestone with its amount and days, and the total", () => {
    render(
      <MilestonePlanPreview
        plan={[
          { title: "Design", amount: 20_000, days: 5 },
          { title: "Build", amount: 25_000 },
          { title: "Launch", amount: 15_000, days: 1 },
        ]}
      />,
    );
    const list = within(screen.getByRole("region", { name: "Milestones" }));
    const items = list.getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "Milestone 1 of 3Design20,000 sats5 days",
      "Milestone 2 of 3Build25,000 sats",
      "Milestone 3 of 3Launch15,000 sats1 day",
    ]);
    expect(list.getByText("Total").parentElement).toHaveTextContent("Total60,000 sats");
  });
});
