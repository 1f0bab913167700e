import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp } from "../../test/render";
import { useGigMutation } from "./gig-api";

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
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalledWith("done"));
  });
});
