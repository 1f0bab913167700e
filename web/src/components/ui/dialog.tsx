import * as DialogPrimitive from "@radix-ui/react-dialog";
import { forwardRef, useRef, useState, type ComponentPropsWithoutRef, type HTMLAttributes, type MutableRefObject } from "react";
import { cn } from "../../lib/cn";
import { XIcon } from "./icons";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/** Centred in the room the toasts leave at the top of the screen (all of it when none shows; from xl they sit bottom-right). */
export const DIALOG_PLACEMENT_CLASS =
  "top-[calc(50%+var(--toast-clearance,0px)/2)] max-h-[calc(100dvh-2rem-var(--toast-clearance,0px))] xl:top-1/2 xl:max-h-[calc(100dvh-2rem)]";

type ContentProps = ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & {
  /** Hide the corner close button (confirmation dialogs have their own Cancel). */
  hideClose?: boolean;
  /** Below the `sm` breakpoint (phones) the dialog fills the screen: no margins, no rounded corners. */
  phoneFullScreen?: boolean;
};

/**
 * A phone-sized screen filled edge to edge, below the toasts while one shows (as every dialog keeps clear of
 * them, toast.tsx TOAST_CLEARANCE_VAR: a toast would cover the title and Close), fading in where it stays;
 * from `sm` up the dialog is the usual centred card.
 */
export const PHONE_FULL_SCREEN_CLASS =
  "max-sm:inset-x-0 max-sm:top-[var(--toast-clearance,0px)] max-sm:left-0 max-sm:h-[calc(100dvh-var(--toast-clearance,0px))] max-sm:max-h-[calc(100dvh-var(--toast-clearance,0px))] max-sm:w-screen max-sm:max-w-none max-sm:translate-x-0 max-sm:translate-y-0 max-sm:rounded-none max-sm:border-0 max-sm:data-[state=open]:animate-fade-in!";

/** Where focus goes back to when a dialog closes, by dialog element (so a dialog that replaces another inherits it). */
const openers = new WeakMap<Element, HTMLElement[]>();

/**
 * The focused control, followed by the openers of the dialog it sits in: when a dialog gives way to another
 * (gig details → payment), the control that opened the second is gone by the time it closes.
 */
function openerChain(): HTMLElement[] {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return [];
  const enclosing = active.closest('[role="dialog"], [role="alertdialog"]');
  return [active, ...((enclosing && openers.get(enclosing)) ?? [])];
}

/**
 * Notes where focus should go back to, when the dialog's content first renders (before Radix moves focus in).
 * Dialogs here are opened from code, not from a Dialog.Trigger, so Radix would not know where to go back.
 */
/** The last focus chain, kept for a dialog whose opener was removed before its content rendered (portals mount late). */
let lastFocus: HTMLElement[] = [];
if (typeof document !== "undefined") {
  document.addEventListener(
    "focusin",
    () => {
      const chain = openerChain();
      if (chain.length) lastFocus = chain;
    },
    true,
  );
}

function RememberOpener({ into }: { into: MutableRefObject<HTMLElement[]> }) {
  useState(() => {
    const chain = openerChain();
    // Nothing focused because the focused control just left the page (its dialog gave way to this one).
    const openerRemoved = lastFocus.length > 0 && !lastFocus[0]!.isConnected;
    into.current = chain.length || !openerRemoved ? chain : lastFocus;
    return null;
  });
  return null;
}

/** The first opener still on the page; else the page's main region, so focus never falls to <body> (WCAG 2.4.3). */
function focusTarget(chain: HTMLElement[]): HTMLElement | null {
  return chain.find((el) => el.isConnected) ?? document.getElementById("main") ?? document.querySelector<HTMLElement>("main");
}

export const DialogContent = forwardRef<HTMLDivElement, ContentProps>(function DialogContent(
  { className, children, hideClose, phoneFullScreen, onCloseAutoFocus, ...props },
  ref,
) {
  const opener = useRef<HTMLElement[]>([]);
  const self = useRef<HTMLDivElement | null>(null);
  const setContent = (el: HTMLDivElement | null) => {
    self.current = el;
    if (el) openers.set(el, opener.current);
    if (typeof ref === "function") ref(el);
    else if (ref) ref.current = el;
  };
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-[2px] data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        ref={setContent}
        className={cn(
          "fixed left-1/2 z-50 flex w-[calc(100vw-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col",
          // Below the toasts while they show (toast.tsx TOAST_CLEARANCE_VAR), so none covers the title or Close.
          DIALOG_PLACEMENT_CLASS,
          "overflow-y-auto rounded-2xl border border-stone-200 bg-white p-5 shadow-xl focus:outline-none data-[state=open]:animate-dialog-in sm:p-6",
          phoneFullScreen && PHONE_FULL_SCREEN_CLASS,
          className,
        )}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          // Focus goes back to the control that opened the dialog (WCAG 2.4.3), or the nearest thing still there.
          if (event.defaultPrevented) return;
          // A dialog that gave way to another leaves focus where the other one put it.
          const othersOpen = [...document.querySelectorAll('[role="dialog"][data-state="open"]')].some((d) => d !== self.current);
          if (othersOpen) return event.preventDefault();
          const target = focusTarget(opener.current);
          if (target) {
            event.preventDefault();
            target.focus({ preventScroll: target.tagName === "MAIN" });
          }
        }}
        {...props}
      >
        <RememberOpener into={opener} />
        {children}
        {!hideClose && (
          <DialogPrimitive.Close
            className="absolute top-3 right-3 rounded-md p-1.5 text-stone-500 hover:bg-stone-100 hover:text-stone-800"
            aria-label="Close"
          >
            <XIcon size={18} />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
});

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mb-4 flex flex-col gap-1.5 pr-8", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}

export const DialogTitle = forwardRef<HTMLHeadingElement, ComponentPropsWithoutRef<typeof DialogPrimitive.Title>>(function DialogTitle(
  { className, ...props },
  ref,
) {
  return <DialogPrimitive.Title ref={ref} className={cn("text-lg font-semibold text-stone-900", className)} {...props} />;
});

export const DialogDescription = forwardRef<HTMLParagraphElement, ComponentPropsWithoutRef<typeof DialogPrimitive.Description>>(
  function DialogDescription({ className, ...props }, ref) {
    return <DialogPrimitive.Description ref={ref} className={cn("text-sm text-stone-600", className)} {...props} />;
  },
);
