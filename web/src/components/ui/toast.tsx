// Toasts (SPEC.md §9): one visible at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the
// region, which is at most 420px wide. `useToast().toast({title, description, variant})` shows one.
//
// Where they show: a tall dialog reaches to 1rem above the bottom of the screen with its action buttons last,
// so a toast at the bottom sat on them (Submit Report at 360x740, and at 1024x640 beside a centred dialog).
// Below xl toasts show at the top; from xl (1280 px) on, bottom-right, 340px wide, beside a max-w-lg dialog.
// Only the toast itself takes clicks: the region around it lets them through to what is under it.
import * as ToastPrimitive from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { cn } from "../../lib/cn";
import { XIcon } from "./icons";

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = "default" | "destructive";

export interface ToastOptions {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
}

interface ToastItem extends ToastOptions {
  id: number;
}

interface ToastApi {
  toast: (options: ToastOptions) => void;
  dismiss: () => void;
}

/** Top on phones and tablets, bottom-right from xl on; the region passes clicks through, the toast does not. */
export const TOAST_VIEWPORT_CLASS = cn(
  "pointer-events-none fixed top-0 right-0 z-[100] flex max-h-screen w-full max-w-[420px] flex-col gap-2 p-4 outline-none",
  "pt-[max(1rem,env(safe-area-inset-top))]",
  "xl:top-auto xl:bottom-0 xl:max-w-[340px] xl:pt-4 xl:pb-[max(1rem,env(safe-area-inset-bottom))]",
);

/**
 * Below xl the toasts sit at the top of the screen, where a tall dialog has its title and Close button: the
 * toast area's height is kept in this variable on <html>, and dialogs (dialog.tsx) start below it while toasts show.
 */
export const TOAST_CLEARANCE_VAR = "--toast-clearance";
const XL_QUERY = "(min-width: 80rem)";

const ToastContext = createContext<ToastApi | null>(null);

let nextToastId = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);

  const toast = useCallback((options: ToastOptions) => {
    const id = ++nextToastId;
    setItems((current) => [{ ...options, id }, ...current].slice(0, TOAST_LIMIT));
  }, []);
  const dismiss = useCallback(() => setItems([]), []);
  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  const viewport = useRef<HTMLOListElement>(null);
  const showing = items.length > 0;
  useLayoutEffect(() => {
    const element = viewport.current;
    const root = document.documentElement;
    const update = () => {
      const atTop = !(typeof window.matchMedia === "function" && window.matchMedia(XL_QUERY).matches);
      const height = showing && atTop && element ? Math.ceil(element.getBoundingClientRect().height) : 0;
      root.style.setProperty(TOAST_CLEARANCE_VAR, `${height}px`);
    };
    update();
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [showing]);

  return (
    <ToastContext.Provider value={api}>
      <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
        {children}
        {items.map((item) => (
          <ToastPrimitive.Root
            key={item.id}
            defaultOpen
            onOpenChange={(open) => {
              if (!open) setItems((current) => current.filter((t) => t.id !== item.id));
            }}
            className={cn(
              "pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg",
              "data-[state=open]:animate-toast-in data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform",
              item.variant === "destructive" ? "border-red-700 bg-red-600 text-white" : "border-stone-200 bg-white text-stone-900",
            )}
            data-variant={item.variant ?? "default"}
          >
            <div className="flex min-w-0 flex-col gap-1">
              <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
              {item.description && (
                <ToastPrimitive.Description
                  className={cn("text-sm break-words", item.variant === "destructive" ? "text-red-50" : "text-stone-600")}
                >
                  {item.description}
                </ToastPrimitive.Description>
              )}
            </div>
            <ToastPrimitive.Close
              aria-label="Close"
              className={cn(
                "absolute top-2 right-2 rounded-md p-1",
                item.variant === "destructive" ? "text-red-100 hover:bg-red-700" : "text-stone-500 hover:bg-stone-100",
              )}
            >
              <XIcon size={16} />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        ))}
        <ToastPrimitive.Viewport ref={viewport} hotkey={["F8"]} className={TOAST_VIEWPORT_CLASS} />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used within ToastProvider");
  return api;
}
