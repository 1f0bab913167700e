// The floating suggestion box button (SPEC.md §2 Other modals), bottom-right on every member-facing page.
// It ships with the first page, so it is only a button: the dialog's code loads on first use.
import { Suspense, useEffect, useState } from "react";
import { OWN_DIALOG } from "./use-suggestions";
import { lazyPart } from "../../lib/lazy-part";

const SuggestionDialog = lazyPart(() => import("#browser-only/suggestion-dialog").then((m) => m.SuggestionDialog));

/**
 * The room a page needs at its very bottom so its last content (the footer's links) can scroll clear of the
 * button: the button's offset from the bottom (safe area included), its 3rem, its 4px ring and a 0.75rem gap.
 * The layout that owns the page puts an element of this height last (see routes/root-layout.tsx).
 */
export const SUGGESTION_BUTTON_CLEARANCE =
  "h-[calc(4rem+max(1rem,env(safe-area-inset-bottom)))] sm:h-[calc(4rem+max(1.5rem,env(safe-area-inset-bottom)))]";

/**
 * The room a row that spans a phone's width keeps at its right end, so that what it says ends clear of the button
 * (its 1rem offset, its 3rem and its 4px ring, less the page's and the card's padding, and a gap) and never scrolls
 * under it: the layout that shows the button sets it on the page (routes/root-layout.tsx) as
 * `--suggestion-button-side-room` below `sm`, which such a row reads (`pe-[var(--suggestion-button-side-room,0.75rem)]`).
 * From `sm` up the page is wide enough, and outside the page (a dialog, where the button steps aside) the row
 * keeps its own 0.75rem.
 */
export const SUGGESTION_BUTTON_SIDE_ROOM = "max-sm:[--suggestion-button-side-room:2.5rem]";

/** A field someone types into: the phone's keyboard is up and the button would sit on the form. */
function isTypingField(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(el.type);
}

/** A form a person fills in on the page itself (not the search box): the button would sit on its fields. */
const PAGE_FORM = 'main form:not([role="search"])';
const FIELD = 'input:not([type="hidden"]), select, textarea, [contenteditable="true"]';
const formOpen = () => Array.from(document.querySelectorAll(PAGE_FORM)).some((form) => form.querySelector(FIELD) !== null);

const openDialogs = () =>
  document.querySelectorAll(`[role="dialog"][data-state="open"]:not([${OWN_DIALOG}]), [role="alertdialog"][data-state="open"]`).length;
/** Typing into the box's own dialog does not count: when it closes, focus goes back to the button, which must be there. */
const typingElsewhere = (el: Element | null) => isTypingField(el) && !el?.closest(`[${OWN_DIALOG}]`);

/**
 * The button never covers a control or a field (issue 26): it steps aside while a dialog is open (other than its
 * own, which gives focus back to it on closing: neither that dialog nor typing in it counts, so the button is there
 * at the moment focus comes back, whichever of closing and the next look at the page comes first), while a form is open on the page (posting a gig, editing the
 * profile) and while someone is typing anywhere. Elsewhere the page scrolls under it like under any floating
 * button, and keeps SUGGESTION_BUTTON_CLEARANCE at its bottom so its last controls can scroll clear of it.
 */
export function useSomethingInFront(ownDialogOpen: boolean): boolean {
  const [inFront, setInFront] = useState({ dialogs: 0, form: false });
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    let frame = 0;
    const look = () => {
      frame = 0;
      const next = { dialogs: openDialogs(), form: formOpen() };
      setInFront((last) => (last.dialogs === next.dialogs && last.form === next.form ? last : next));
    };
    // At most once a frame, however many DOM changes arrive.
    const lookSoon = () => {
      if (!frame) frame = requestAnimationFrame(look);
    };
    look();
    const observer = new MutationObserver(lookSoon);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
    const onFocus = () => setTyping(typingElsewhere(document.activeElement));
    // Focus leaving a field lands on the next element (or nowhere) only after focusout.
    const onBlur = () => queueMicrotask(onFocus);
    document.addEventListener("focusin", onFocus);
    document.addEventListener("focusout", onBlur);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      observer.disconnect();
      document.removeEventListener("focusin", onFocus);
      document.removeEventListener("focusout", onBlur);
    };
  }, []);
  if (ownDialogOpen) return false;
  return inFront.dialogs > 0 || inFront.form || typing;
}

export function SuggestionBoxButton() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const stepAside = useSomethingInFront(open);
  return (
    <>
      <button
        hidden={stepAside}
        type="button"
        aria-label="Suggestion box"
        title="Suggestion box"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
        className="fixed right-4 bottom-[max(1rem,env(safe-area-inset-bottom))] z-30 flex size-12 cursor-pointer items-center justify-center rounded-full bg-brand-500 text-stone-950 shadow-lg ring-4 ring-white/70 transition-colors hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 active:bg-brand-700 sm:right-6 sm:bottom-[max(1.5rem,env(safe-area-inset-bottom))]"
      >
        <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
          <path d="M9 18h6M10 22h4M12 2a7 7 0 0 0-4 12.7c.6.5 1 1.2 1 2V17h6v-.3c0-.8.4-1.5 1-2A7 7 0 0 0 12 2z" />
        </svg>
      </button>
      {requested && (
        <Suspense fallback={null}>
          <SuggestionDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
