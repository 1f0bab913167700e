// The floating suggestion box button (SPEC.md §2 Other modals), bottom-right on every member-facing page.
// It ships with the first page, so it is only a button: the dialog's code loads on first use.
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from "react";

const SuggestionDialog = lazy(() => import("./suggestion-dialog").then((m) => ({ default: m.SuggestionDialog })));

/**
 * The room a page needs at its very bottom so its last content (the footer's links) can scroll clear of the
 * button: the button's offset from the bottom (safe area included), its 3rem, its 4px ring and a 0.75rem gap.
 * The layout that owns the page puts an element of this height last (see routes/root-layout.tsx).
 */
export const SUGGESTION_BUTTON_CLEARANCE =
  "h-[calc(4rem+max(1rem,env(safe-area-inset-bottom)))] sm:h-[calc(4rem+max(1.5rem,env(safe-area-inset-bottom)))]";

/** A field someone types into: the phone's keyboard is up and the button would sit on the form. */
function isTypingField(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(el.type);
}

const FIELD = 'input:not([type="hidden"]), select, textarea, [contenteditable="true"]';

/** What a person taps or types into: the button must never sit on one. */
const CONTROL = 'a[href], button, input, select, textarea, label, summary, [role="button"], [role="tab"], [role="checkbox"], [role="radio"], [contenteditable="true"]';

/**
 * Does a control lie under the button's place? Read from the points of its box, which keeps its place while
 * the button is invisible (so stepping aside never flips back and forth); elementsFromPoint lists everything
 * stacked at a point, and skips the button itself while it is invisible.
 */
function coversAControl(button: HTMLElement): boolean {
  if (typeof document.elementsFromPoint !== "function") return false;
  const box = button.getBoundingClientRect();
  if (box.width === 0) return false;
  const xs = [box.left + 2, box.left + box.width / 2, box.right - 2];
  const ys = [box.top + 2, box.top + box.height / 2, box.bottom - 2];
  const underneath = new Set<Element>();
  for (const x of xs) for (const y of ys) for (const el of document.elementsFromPoint(x, y)) underneath.add(el);
  for (const el of underneath) {
    if (el === button || button.contains(el)) continue;
    const control = el.closest(CONTROL);
    if (!control || control.contains(button)) continue;
    // A field always counts; a big tappable area (a whole gig card) can still be tapped beside the button.
    if (control.matches(FIELD) || control.getBoundingClientRect().height <= 2 * box.height) return true;
  }
  return false;
}

const openDialogs = () => document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]').length;

/**
 * The button never covers a control or a field (issue 26): it steps aside while a dialog is open (other than its
 * own, which gives focus back to it on closing), while someone is typing into a form, and while a control
 * lies under it (a form's field scrolled to the corner). The page keeps SUGGESTION_BUTTON_CLEARANCE at its
 * bottom, so everything can scroll clear of it.
 */
export function useSomethingInFront(ownDialogOpen: boolean, button: RefObject<HTMLElement | null>): "show" | "hide" | "invisible" {
  const [dialogs, setDialogs] = useState(0);
  const [typing, setTyping] = useState(false);
  const [covering, setCovering] = useState(false);
  useEffect(() => {
    let frame = 0;
    const look = () => {
      frame = 0;
      setDialogs(openDialogs());
      if (button.current) setCovering(coversAControl(button.current));
    };
    // At most once a frame, however many scroll events or DOM changes arrive.
    const lookSoon = () => {
      if (!frame) frame = requestAnimationFrame(look);
    };
    look();
    const observer = new MutationObserver(lookSoon);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state", "class", "hidden", "open"] });
    window.addEventListener("scroll", lookSoon, { passive: true });
    window.addEventListener("resize", lookSoon);
    const onFocus = () => setTyping(isTypingField(document.activeElement));
    // Focus leaving a field lands on the next element (or nowhere) only after focusout.
    const onBlur = () => queueMicrotask(onFocus);
    document.addEventListener("focusin", onFocus);
    document.addEventListener("focusout", onBlur);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener("scroll", lookSoon);
      window.removeEventListener("resize", lookSoon);
      document.removeEventListener("focusin", onFocus);
      document.removeEventListener("focusout", onBlur);
    };
  }, [button]);
  if (ownDialogOpen) return "show";
  if (dialogs > 0 || typing) return "hide";
  return covering ? "invisible" : "show";
}

export function SuggestionBoxButton() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const self = useRef<HTMLButtonElement>(null);
  const stepAside = useSomethingInFront(open, self);
  return (
    <>
      <button
        ref={self}
        hidden={stepAside === "hide"}
        aria-hidden={stepAside === "invisible" || undefined}
        tabIndex={stepAside === "invisible" ? -1 : undefined}
        type="button"
        aria-label="Suggestion box"
        title="Suggestion box"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
        className={`${stepAside === "invisible" ? "invisible " : ""}fixed right-4 bottom-[max(1rem,env(safe-area-inset-bottom))] z-30 flex size-12 cursor-pointer items-center justify-center rounded-full bg-brand-500 text-stone-950 shadow-lg ring-4 ring-white/70 transition-colors hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 active:bg-brand-700 sm:right-6 sm:bottom-[max(1.5rem,env(safe-area-inset-bottom))]`}
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
