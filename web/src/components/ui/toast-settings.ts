// What the toasts' provider (toast.tsx) and their region (toast-region.tsx) share: the region is the browser's
// only (decision 030), so these live apart from both.
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = "default" | "destructive";

export interface ToastOptions {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastOptions {
  id: number;
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
export const XL_QUERY = "(min-width: 80rem)";
