// Gig management (SPEC.md §2 Gig details modal, §6 Gig owner, Hirer): edit the title and description, the
// budget for the owner of an open service offering, the deadline (the hirer answers extension requests or
// extends it directly; the worker asks for more days), and cancel.
import { useId, useMemo, useState, type FormEvent } from "react";
import { gigEditSchema } from "../../../../domain/gig-schemas";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { describedBy, FormField, Input, Textarea } from "../../components/ui/input";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { shortId } from "../../lib/format";
import { useAuth } from "../auth/auth-context";
import { HirerExtensionPanel, WorkerExtensionPanel } from "./extension-panel";
import { CancelGigButton } from "./gig-actions";
import { gigApi, useGigMutation, type GigEdit } from "./gig-api";
import { gigPermissions } from "./gig-roles";
import { GigStatusBadge } from "./gig-status";
import { useGig } from "./use-gigs";
import type { Gig } from "./types";

export function ManageGigModal({ gigId, open, onOpenChange }: { gigId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const gig = useGig(gigId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Manage Gig</DialogTitle>
          <DialogDescription>
            {gig.data ? (
              <>
                <span className="font-mono">{shortId(gig.data.id)}</span> · <GigStatusBadge status={gig.data.status} />
              </>
            ) : (
              "Loading the gig"
            )}
          </DialogDescription>
        </DialogHeader>
        {gig.data && !gig.isPlaceholderData ? (
          <ManageGigForm gig={gig.data} onDone={() => onOpenChange(false)} />
        ) : gig.isError ? (
          <p className="text-sm text-red-700">{errorText(gig.error, "Could not load the gig.")}</p>
        ) : (
          <Skeleton className="h-64 rounded-lg" />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ManageGigForm({ gig, onDone }: { gig: Gig; onDone: () => void }) {
  const id = useId();
  const { user } = useAuth();
  const { toast } = useToast();
  const p = gigPermissions(gig, user?.id);
  const canEdit = p.can("edit");
  const canBudget = p.can("change_budget");
  const workerWithdraws = p.isWorker && !p.isHirer && gig.status === "claimed";
  const [title, setTitle] = useState(gig.title);
  const [description, setDescription] = useState(gig.description);
  const [budget, setBudget] = useState(String(gig.payment));
  const save = useGigMutation((edit: GigEdit) => gigApi.edit(gig.id, edit));

  const edit = useMemo<GigEdit>(() => {
    const next: GigEdit = {};
    if (title.trim() !== gig.title) next.title = title;
    if (description.trim() !== gig.description) next.description = description;
    if (canBudget && budget.trim() !== String(gig.payment)) next.budget = budget.trim() === "" ? Number.NaN : Number(budget);
    return next;
  }, [title, description, budget, gig, canBudget]);
  const changed = Object.keys(edit).length > 0;
  const check = changed ? gigEditSchema.safeParse(edit) : null;
  const errors: Partial<Record<keyof GigEdit, string>> = {};
  if (check && !check.success) for (const issue of check.error.issues) errors[issue.path[0] as keyof GigEdit] ??= issue.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check?.success) return;
    save.mutate(check.data, {
      onSuccess: () => {
        toast({ title: "Gig Updated", description: "Your changes are saved." });
        onDone();
      },
      onError: (err) => toast({ title: "Failed to Update Gig", description: errorText(err), variant: "destructive" }),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      {canEdit ? (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <FormField id={`${id}-title`} label="Title" error={errors.title}>
            <Input
              id={`${id}-title`}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              aria-invalid={!!errors.title}
              aria-describedby={describedBy(`${id}-title`, undefined, errors.title)}
            />
          </FormField>
          <FormField id={`${id}-description`} label="Description" error={errors.description}>
            <Textarea
              id={`${id}-description`}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              rows={5}
              aria-invalid={!!errors.description}
              aria-describedby={describedBy(`${id}-description`, undefined, errors.description)}
            />
          </FormField>
          {canBudget && (
            <FormField id={`${id}-budget`} label="Budget (sats)" error={errors.budget} hint="Only while the offer is open and nobody has hired it.">
              <Input
                id={`${id}-budget`}
                type="number"
                inputMode="numeric"
                min={1}
                max={1_000_000}
                value={budget}
                onChange={(e) => setBudget(e.target.value)}
                aria-invalid={!!errors.budget}
                aria-describedby={describedBy(`${id}-budget`, true, errors.budget)}
              />
            </FormField>
          )}
          <DialogFooter className="mt-0">
            <Button type="submit" disabled={!changed || !check?.success || save.isPending}>
              {save.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </DialogFooter>
        </form>
      ) : (
        <p className="text-sm text-stone-600">This gig can no longer be edited.</p>
      )}
      {p.can("extend_deadline") && <HirerExtensionPanel gig={gig} history />}
      {p.can("request_extension") && <WorkerExtensionPanel gig={gig} />}
      {p.can("cancel") && (
        <section className="flex flex-col gap-2 border-t border-stone-200 pt-4">
          {/* A worker backing out of a gig they claimed withdraws (CancelGigButton); the hirer cancels. */}
          <h3 className="text-sm font-semibold text-red-800">{workerWithdraws ? "Withdraw from the gig" : "Cancel gig"}</h3>
          <p className="text-xs text-stone-600">
            {workerWithdraws
              ? "Withdrawing cancels the gig; the hirer's escrow is refunded in full, fee included."
              : "Cancelling refunds a funded escrow in full, fee included."}
          </p>
          <div>
            <CancelGigButton gig={gig} onCancelled={onDone} />
          </div>
        </section>
      )}
    </div>
  );
}
