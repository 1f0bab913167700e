import { useCallback } from "react";
import { useToast } from "../../components/ui/toast";
import { ApiError } from "../../lib/api";
import { useSettingsDialog } from "../profile/settings-context";

/** The machine code of an API error ({message, error}), if it has one. */
export function apiErrorCode(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  try {
    const body = JSON.parse(err.body) as { error?: unknown };
    return typeof body.error === "string" ? body.error : undefined;
  } catch {
    return undefined;
  }
}

export const isLightningAddressRequired = (err: unknown) => apiErrorCode(err) === "lightning_address_required";

/** 'Lightning Address Required' (SPEC.md §8): the toast, and the settings dialog where the address is set. */
export function useLightningAddressRequired(action: "posting" | "claiming" = "posting") {
  const { toast } = useToast();
  const { openSettings } = useSettingsDialog();
  return useCallback(() => {
    toast({
      title: "Lightning Address Required",
      description: `Please set your Lightning address in Settings before ${action}, so you can be paid.`,
      variant: "destructive",
    });
    openSettings();
  }, [toast, openSettings, action]);
}
