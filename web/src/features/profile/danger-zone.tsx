// Account termination with two confirmations in sequence (SPEC.md §2 /profile, §4, §8).
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { AlertIcon, TrashIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { ApiError } from "../../lib/api";
import { useAuth } from "../auth/auth-context";
import { cannotDeleteAccountText } from "./profile-texts";
import { useDeleteAccount } from "./use-profile";

type Step = "closed" | "confirm" | "final";

/** Leaves the app after deletion: to / with a full reload, so nothing of the old session survives. */
export function reloadHome(): void {
  window.location.assign("/");
}

export function DangerZone({ onDeleted = reloadHome }: { onDeleted?: () => void }) {
  const [step, setStep] = useState<Step>("closed");
  const { toast } = useToast();
  const { logout } = useAuth();
  const remove = useDeleteAccount();

  const deleteForever = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setStep("closed");
        toast({ title: "Account Terminated", description: "Your account has been permanently deleted." });
        logout();
        onDeleted();
      },
      onError: (err) => {
        setStep("closed");
        toast({
          title: "Cannot Delete Account",
          description: cannotDeleteAccountText(err instanceof ApiError ? err.serverMessage : undefined),
          variant: "destructive",
        });
      },
    });

  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle className="text-red-700">
          <AlertIcon />
          Danger Zone
        </CardTitle>
        <CardDescription>Irreversible actions on your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="text-sm text-stone-700">
          <p className="font-medium text-stone-900">Terminate Account</p>
          <p>Permanently delete your account and profile. Accounts with active escrow cannot be deleted.</p>
        </div>
        <Button variant="destructive" onClick={() => setStep("confirm")}>
          <TrashIcon />
          Terminate Account
        </Button>
      </CardContent>

      <Dialog open={step === "confirm"} onOpenChange={(open) => !open && setStep("closed")}>
        <DialogContent role="alertdialog" hideClose>
          <DialogHeader className="pr-0">
            <DialogTitle>Are you absolutely sure?</DialogTitle>
            <DialogDescription>
              This will permanently delete your Gigstr account, your profile and your settings. This action cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setStep("closed")}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => setStep("final")}>
              Continue
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={step === "final"} onOpenChange={(open) => !open && !remove.isPending && setStep("closed")}>
        <DialogContent role="alertdialog" hideClose>
          <DialogHeader className="pr-0">
            <DialogTitle>Final Confirmation</DialogTitle>
            <DialogDescription>Your account will be deleted forever. Your alias stays reserved and will no longer forward payments.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setStep("closed")} disabled={remove.isPending}>
              No, Keep My Account
            </Button>
            <Button variant="destructive" onClick={deleteForever} disabled={remove.isPending}>
              {remove.isPending ? "Deleting..." : "Yes, Delete Forever"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
