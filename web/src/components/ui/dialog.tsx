import * as DialogPrimitive from "@radix-ui/react-dialog";
import { forwardRef, useRef, useState, type ComponentPropsWithoutRef, type HTMLAttributes, type MutableRefObject } from "react";
import { cn } from "../../lib/cn";
import { XIcon } from "./icons";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

type ContentProps = ComponentPropsWithoutRef<typeof DialogPrimitive.Content> & {
  /** Hide the corner close button (confirmation dialogs have their own Cancel). */
  hideClose?: boolean;
};

/**
 * Notes which element had focus when the dialog's content first renders (before Radix moves focus in).
 * Dialogs here are opened from code, not from a Dialog.Trigger, so Radix would not know where to go back.
 */
function RememberOpener({ into }: { into: MutableRefObject<HTMLElement | null> }) {
  useState(() => {
    into.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    return null;
  });
  return null;
}

export const DialogContent = forwardRef<HTMLDivElement, ContentProps>(function DialogContent(
  { className, children, hideClose, onCloseAutoFocus, ...props },
  ref,
) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-stone-950/50 backdrop-blur-[2px] data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content
        ref={ref}
        className={cn(
          "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col",
          "overflow-y-auto rounded-2xl border border-stone-200 bg-white p-5 shadow-xl focus:outline-none data-[state=open]:animate-dialog-in sm:p-6",
          className,
        )}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          // Focus goes back to the control that opened the dialog (WCAG 2.4.3), when it is still there.
          if (!event.defaultPrevented && opener.current?.isConnected) {
            event.preventDefault();
            opener.current.focus();
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
