import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./dialog";

function Modal({ title, onClose, children }: { title: string; onClose: () => void; children?: React.ReactNode }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{title} text</DialogDescription>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** A page like the main one: a card opens the details, whose Pay button gives way to the payment dialog. */
function Page({ startWith = null }: { startWith?: "details" | null }) {
  const [open, setOpen] = useState<"details" | "payment" | null>(startWith);
  return (
    <main id="main" tabIndex={-1}>
      <button type="button" onClick={() => setOpen("details")}>
        View Details
      </button>
      {open === "details" && (
        <Modal title="Details" onClose={() => setOpen(null)}>
          <button type="button" onClick={() => setOpen("payment")}>
            Pay Invoice
          </button>
        </Modal>
      )}
      {open === "payment" && <Modal title="Payment" onClose={() => setOpen(null)} />}
    </main>
  );
}

describe("dialog focus return (WCAG 2.4.3)", () => {
  it("gives focus back to the control that opened the dialog", async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole("button", { name: "View Details" }));
    await screen.findByRole("dialog", { name: "Details" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole("button", { name: "View Details" })).toHaveFocus());
  });

  it("when a dialog gave way to another, closing the second goes back to what opened the first", async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole("button", { name: "View Details" }));
    await user.click(await screen.findByRole("button", { name: "Pay Invoice" }));
    await screen.findByRole("dialog", { name: "Payment" });
    expect(screen.queryByRole("dialog", { name: "Details" })).not.toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole("button", { name: "View Details" })).toHaveFocus());
  });

  it("a dialog opened by a link (no opener) leaves focus on the main region, not the page body", async () => {
    const user = userEvent.setup();
    render(<Page startWith="details" />);
    await user.click(await screen.findByRole("button", { name: "Pay Invoice" }));
    await screen.findByRole("dialog", { name: "Payment" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole("main")).toHaveFocus());
  });
});
