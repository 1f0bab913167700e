// The toasts' region (toast.tsx): Radix's provider, each toast and the viewport F8 focuses. Drawn by the browser
// only, once hydrated (the Worker's bundle gets a stand-in, `#browser-only/toast-region`): no toast shows before.
import * as ToastPrimitive from "@radix-ui/react-toast";
import { useLayoutEffect, useRef } from "react";
import { cn } from "../../lib/cn";
import { XIcon } from "./icons";
import { TOAST_CLEARANCE_VAR, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, TOAST_VIEWPORT_CLASS, XL_QUERY, type ToastItem } from "./toast-settings";

export function ToastRegion({ items, onClosed }: { items: ToastItem[]; onClosed: (id: number) => void }) {
  const viewport = useRef<HTMLOListElement>(null);
  const showing = items.length > 0;
  useLayoutEffect(() => {
    const element = viewport.current;
    const root = document.documentElement;
    const update = () => {
      const atTop = !(typeof window.matchMedia === "function" && window.matchMedia(XL_QUERY).matches);
      const height = showing && atTop && element ? Math.ceil(element.getBoundingClientRect().height) : 0;
      // A style written on <html> restyles the whole page (every card of a browse list): the property is there
      // only while a toast needs room (its readers fall back to 0px), and the same value is not written again.
      // Written at every mount, it was a whole-page restyle in the task after the public pages' hydration.
      const value = height > 0 ? `${height}px` : "";
      if (root.style.getPropertyValue(TOAST_CLEARANCE_VAR) === value) return;
      if (value) root.style.setProperty(TOAST_CLEARANCE_VAR, value);
      else root.style.removeProperty(TOAST_CLEARANCE_VAR);
    };
    update();
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [showing]);

  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
      {items.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          defaultOpen
          onOpenChange={(open) => {
            if (!open) onClosed(item.id);
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
              <ToastPrimitive.Description className={cn("text-sm break-words", item.variant === "destructive" ? "text-red-50" : "text-stone-600")}>
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
  );
}
