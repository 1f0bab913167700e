import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle, DIALOG_PLACEMENT_CLASS } from "./dialog";
import { TOAST_CLEARANCE_VAR, TOAST_VIEWPORT_CLASS, ToastProvider, useToast } from "./toast";

function Trigger() {
  const { toast } = useToast();
  return (
    <button type="button" onClick={() => toast({ title: "Failed to Submit Report", description: "Please try again.", variant: "destructive" })}>
      Submit Report
    </button>
  );
}

function renderToasts(withDialog = false) {
  return render(
    <ToastProvider>
      {withDialog ? (
        <Dialog open>
          <DialogContent>
            <DialogTitle>Report Gig</DialogTitle>
            <DialogDescription>Why?</DialogDescription>
            <DialogFooter>
              <Trigger />
            </DialogFooter>
          </DialogContent>
        </Dialog>
      ) : (
        <Trigger />
      )}
    </ToastProvider>,
  );
}

const region = () => screen.getByRole("region", { name: /notifications/i, hidden: true });

describe("toast viewport placement", () => {
  it("is at the top below xl and bottom-right from xl, so it never sits on a dialog's bottom buttons", () => {
    const classes = TOAST_VIEWPORT_CLASS.split(" ");
    // Phones and tablets: the top of the screen, full width up to 420px.
    expect(classes).toEqual(expect.arrayContaining(["fixed", "top-0", "right-0", "w-full", "max-w-[420px]"]));
    expect(classes.some((c) => /^bottom-/.test(c))).toBe(false);
    // From xl on: bottom-right and 340px wide, beside a centred max-w-lg dialog.
    expect(classes).toEqual(expect.arrayContaining(["xl:top-auto", "xl:bottom-0", "xl:max-w-[340px]"]));
    // Above the dialogs (z-50) and the suggestion button (z-30).
    expect(classes).toContain("z-[100]");
  });

  it("lets clicks through the region around the toast, not through the toast", async () => {
    renderToasts();
    await userEvent.click(screen.getByRole("button", { name: "Submit Report" }));
    const list = within(region()).getByRole("list", { hidden: true });
    expect(list.className).toBe(TOAST_VIEWPORT_CLASS);
    expect(list).toHaveClass("pointer-events-none");
    const toast = await within(region()).findByText("Failed to Submit Report");
    expect(toast.closest("li")).toHaveClass("pointer-events-auto");
  });

  it("keeps the toast's text, its F8 region and its close button, also over an open dialog", async () => {
    const user = userEvent.setup();
    renderToasts(true);
    expect(region()).toHaveAttribute("aria-label", expect.stringMatching(/^Notifications \(F8\)/));
    await user.click(screen.getByRole("button", { name: "Submit Report" }));

    const item = (await within(region()).findByText("Failed to Submit Report")).closest("li")!;
    expect(item).toHaveAttribute("data-state", "open");
    expect(item).toHaveAttribute("data-variant", "destructive");
    expect(within(item).getByText("Please try again.")).toBeInTheDocument();
    // The dialog's button stays usable while the toast shows.
    expect(screen.getByRole("dialog", { name: "Report Gig" })).toContainElement(screen.getByRole("button", { name: "Submit Report" }));

    // A plain click (jsdom has no pointer capture for the toast's swipe handling).
    fireEvent.click(within(item).getByRole("button", { name: "Close", hidden: true }));
    await waitFor(() => expect(within(region()).queryByText("Failed to Submit Report")).not.toBeInTheDocument());
  });
});

describe("a toast over an open dialog, below xl", () => {
  it("moves the dialog below the toasts while they show, and back once they are gone", async () => {
    // jsdom lays nothing out: the toast area measures 96 px here, as a one-line toast does on a phone.
    const measure = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({ height: 96 } as DOMRect);
    const clearance = () => document.documentElement.style.getPropertyValue(TOAST_CLEARANCE_VAR);
    renderToasts(true);
    const dialog = screen.getByRole("dialog", { name: "Report Gig" });
    for (const c of DIALOG_PLACEMENT_CLASS.split(" ")) expect(dialog).toHaveClass(c);
    expect(DIALOG_PLACEMENT_CLASS).toContain("top-[calc(50%+var(--toast-clearance,0px)/2)]");
    expect(DIALOG_PLACEMENT_CLASS).toContain("max-h-[calc(100dvh-2rem-var(--toast-clearance,0px))]");
    // No toast: nothing is written on <html> (a style there restyles the whole page); the dialog reads 0px.
    expect(clearance()).toBe("");
    expect(document.documentElement.getAttribute("style") ?? "").toBe("");

    await userEvent.click(within(dialog).getByRole("button", { name: "Submit Report" }));
    await waitFor(() => expect(clearance()).toBe("96px"));

    const item = (await within(region()).findByText("Failed to Submit Report")).closest("li")!;
    fireEvent.click(within(item).getByRole("button", { name: "Close", hidden: true }));
    await waitFor(() => expect(clearance()).toBe(""));
    measure.mockRestore();
  });
});
