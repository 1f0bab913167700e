// Toasts (SPEC.md §9): one visible at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the
// region, which is at most 420px wide. `useToast().toast({title, description, variant})` shows one.
//
// Where they show: a tall dialog reaches to 1rem above the bottom of the screen with its action buttons last,
// so a toast at the bottom sat on them (Submit Report at 360x740, and at 1024x640 beside a centred dialog).
// Below xl toasts show at the top; from xl (1280 px) on, bottom-right, 340px wide, beside a max-w-lg dialog.
// Only the toast itself takes clicks: the region around it lets them through to what is under it.
import { ToastRegion } from "#browser-only/toast-region";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { useHydrated } from "../../lib/hydration";
import { TOAST_LIMIT, type ToastItem, type ToastOptions } from "./toast-settings";

export { TOAST_CLEARANCE_VAR, TOAST_DURATION_MS, TOAST_LIMIT, TOAST_SWIPE_THRESHOLD_PX, TOAST_VIEWPORT_CLASS } from "./toast-settings";
export type { ToastItem, ToastOptions, ToastVariant } from "./toast-settings";

interface ToastApi {
  toast: (options: ToastOptions) => void;
  dismiss: () => void;
}

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
  const closed = useCallback((id: number) => setItems((current) => current.filter((t) => t.id !== id)), []);

  // The region (Radix's provider and viewport) is drawn once the browser has hydrated: no toast shows before
  // then, so the Worker's HTML and the first render leave it out, and its code stays out of the Worker's bundle
  // (`#browser-only/toast-region`, decision 030).
  const hydrated = useHydrated();
  return (
    <ToastContext.Provider value={api}>
      {children}
      {hydrated && <ToastRegion items={items} onClosed={closed} />}
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used within ToastProvider");
  return api;
}
