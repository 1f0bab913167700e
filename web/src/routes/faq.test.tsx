// The FAQ speaks to a newcomer (issue 26): what a Nostr key is, what each way to log in does, one glossary,
// and no internal status codes.
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithApp } from "../test/render";
import { FaqRoute, GLOSSARY } from "./faq";

describe("FAQ", () => {
  it("says what a Nostr key is and that With Key keeps the key in this browser", () => {
    renderWithApp(<FaqRoute />, { route: "/faq" });
    const keys = screen.getByRole("region", { name: "Your Nostr key" });
    expect(within(keys).getByRole("heading", { name: "What is a Nostr key?" })).toBeInTheDocument();
    expect(keys).toHaveTextContent(/With Key: you paste your private key .* never sent to Gigstr/);
    expect(keys).toHaveTextContent(/tick "I saved my key"/);
    expect(document.body).not.toHaveTextContent("Gigstr will never ask for it");
  });

  it("has one glossary with one meaning per word, reachable from the quick navigation", () => {
    renderWithApp(<FaqRoute />, { route: "/faq" });
    const glossary = screen.getByRole("region", { name: "Glossary" });
    const terms = within(glossary)
      .getAllByRole("term")
      .map((t) => t.textContent);
    expect(terms).toEqual(GLOSSARY.map(([term]) => term));
    expect(new Set(terms).size).toBe(terms.length);
    expect(terms).toEqual(expect.arrayContaining(["Hirer", "Worker", "Withdraw", "Escrow", "Invoice", "Nostr key", "Log in"]));
    expect(screen.getByRole("navigation", { name: "Quick navigation" })).toContainElement(screen.getByRole("link", { name: "Glossary" }));
  });

  it("shows no internal codes and no 'owner' where it means the hirer", () => {
    renderWithApp(<FaqRoute />, { route: "/faq" });
    const text = document.body.textContent ?? "";
    for (const code of ["in_progress", "needs_revision", "work_submitted", "pending_payment", "(open)", "(claimed)", "(disputed)"]) {
      expect(text).not.toContain(code);
    }
    expect(text).not.toMatch(/\bowner\b/i);
    expect(text).not.toMatch(/\bsign (in|out)\b/i);
  });

  it("opens at the section a link points to", async () => {
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    renderWithApp(<FaqRoute />, { route: "/faq#nostr-keys" });
    await waitFor(() => expect(scrolled).toContain("nostr-keys"));
    expect(screen.getByRole("heading", { level: 2, name: "Your Nostr key" })).toHaveFocus();
  });
});
