// The owner's portfolio on /profile: the same grid as the public profile, plus Add, Edit and Remove
// (removal asks first). Public profiles keep the read-only grid.
import { useState } from "react";
import type { OwnUser } from "../../../../domain/profile";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { PencilIcon, TrashIcon } from "../../components/ui/icons";
import { Skeleton } from "../../components/ui/skeleton";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { PortfolioGrid } from "./portfolio-grid";
import { PortfolioItemDialog } from "./portfolio-item-dialog";
import type { PortfolioItem } from "./types";
import { useAddPortfolioItem, useEditPortfolioItem, usePortfolio, useRemovePortfolioItem, type PortfolioItemInput } from "./use-profile";

export const PORTFOLIO_TEXTS = {
  added: "Portfolio Item Added",
  updated: "Portfolio Item Updated",
  removed: "Portfolio Item Removed",
  addFailed: "Failed to Add Portfolio Item",
  updateFailed: "Failed to Update Portfolio Item",
  removeFailed: "Failed to Remove Portfolio Item",
} as const;

/** Which dialog is open: the item form (null item = adding), or the removal confirmation. */
type Open = { kind: "closed" } | { kind: "form"; item: PortfolioItem | null; key: number } | { kind: "remove"; item: PortfolioItem };

export function PortfolioEditor({ user }: { user: OwnUser }) {
  const portfolio = usePortfolio(user.id);
  const add = useAddPortfolioItem(user.id);
  const edit = useEditPortfolioItem(user.id);
  const remove = useRemovePortfolioItem(user.id);
  const { toast } = useToast();
  const [open, setOpen] = useState<Open>({ kind: "closed" });
  // A fresh form (fresh fields and errors) each time one opens.
  const [formsOpened, setFormsOpened] = useState(0);
  const close = () => setOpen({ kind: "closed" });
  const openForm = (item: PortfolioItem | null) => {
    setFormsOpened((n) => n + 1);
    setOpen({ kind: "form", item, key: formsOpened + 1 });
  };

  const save = (item: PortfolioItem | null, input: PortfolioItemInput) => {
    const done = (title: string, description: string) => () => {
      toast({ title, description });
      close();
    };
    const failed = (title: string) => (err: unknown) => toast({ title, description: errorText(err, "Please try again."), variant: "destructive" });
    if (item) edit.mutate({ id: item.id, input }, { onSuccess: done(PORTFOLIO_TEXTS.updated, `Your changes to “${input.title}” are saved.`), onError: failed(PORTFOLIO_TEXTS.updateFailed) });
    else add.mutate(input, { onSuccess: done(PORTFOLIO_TEXTS.added, `“${input.title}” is now on your profile.`), onError: failed(PORTFOLIO_TEXTS.addFailed) });
  };

  const confirmRemove = (item: PortfolioItem) =>
    remove.mutate(item.id, {
      onSuccess: () => {
        toast({ title: PORTFOLIO_TEXTS.removed, description: `“${item.title}” was removed from your profile.` });
        close();
      },
      onError: (err) => {
        toast({ title: PORTFOLIO_TEXTS.removeFailed, description: errorText(err, "Please try again."), variant: "destructive" });
        close();
      },
    });

  return (
    <section aria-labelledby="own-portfolio" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="own-portfolio" className="text-lg font-semibold">
          Portfolio
        </h2>
        <Button size="sm" onClick={() => openForm(null)}>
          <PlusGlyph />
          Add Item
        </Button>
      </div>
      {portfolio.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-36 rounded-xl" />
          ))}
        </div>
      ) : (
        <PortfolioGrid
          items={portfolio.data ?? []}
          actions={(item) => (
            <>
              <Button size="sm" variant="ghost" onClick={() => openForm(item)} aria-label={`Edit ${item.title}`}>
                <PencilIcon size={14} />
                Edit
              </Button>
              <Button size="sm" variant="ghost" className="text-red-700! hover:bg-red-50!" onClick={() => setOpen({ kind: "remove", item })}
                aria-label={`Remove ${item.title}`}
              >
                <TrashIcon size={14} />
                Remove
              </Button>
            </>
          )}
        />
      )}

      {open.kind === "form" && (
        <PortfolioItemDialog
          key={open.key}
          open
          onOpenChange={(next) => !next && close()}
          item={open.item}
          pending={add.isPending || edit.isPending}
          onSubmit={(input) => save(open.item, input)}
        />
      )}

      <Dialog open={open.kind === "remove"} onOpenChange={(next) => !next && close()}>
        <DialogContent hideClose className="max-w-md">
          <DialogHeader>
            <DialogTitle>Remove this portfolio item?</DialogTitle>
            <DialogDescription>
              {open.kind === "remove" ? `“${open.item.title}” will be removed from your profile. This cannot be undone.` : null}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => open.kind === "remove" && confirmRemove(open.item)} disabled={remove.isPending}>
              {remove.isPending ? "Removing..." : "Remove"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}

function PlusGlyph() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true" focusable="false">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}
