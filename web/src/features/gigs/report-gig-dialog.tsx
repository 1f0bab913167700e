// Report Gig (SPEC.md §2 Gig card, §5 Report form, §9 report reasons): a reason is required, details
// are optional; POST /api/gig-reports {gigId, reason, details}.
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { Label, Textarea } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { gigApi } from "./gig-api";
import type { Gig } from "./types";
import { REPORT_REASONS, type ReportReason } from "../../../../domain/admin";

/** The form's wording of each reason the API accepts (domain/admin.ts): a reason added there fails the build here. */
const REASON_CHOICES: Record<ReportReason, string> = {
  illegal_content: "Illegal content (drugs, weapons, trafficking, etc.)",
  harassment: "Harassment, abuse or threatening behavior",
  sexual_content: "Sexual content or services",
  scam: "Scam, fraud or deceptive practices",
  fake_credentials: "False credentials or misleading portfolio",
  shitcoinery: "Altcoins, NFTs or crypto scams",
  spam: "Spam or excessive advertising",
  hate_speech: "Hate speech or discriminatory content",
  doxxing: "Doxxing or privacy violation",
  manipulation: "Platform manipulation or sybil attack",
  other: "Other violation",
};
const REASONS = REPORT_REASONS.map((value) => ({ value, label: REASON_CHOICES[value] }));

export function ReportGigDialog({ gig, open, onOpenChange }: { gig: Pick<Gig, "id" | "title">; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const [details, setDetails] = useState("");
  const report = useMutation({ mutationFn: gigApi.report });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      toast({ title: "Please select a reason", description: "You must select a reason for reporting this gig.", variant: "destructive" });
      return;
    }
    report.mutate(
      { gigId: gig.id, reason, ...(details.trim() ? { details: details.trim() } : {}) },
      {
        onSuccess: () => {
          toast({ title: "Report Submitted", description: "Thank you. Our team will review this report." });
          setReason("");
          setDetails("");
          onOpenChange(false);
        },
        onError: (err) =>
          toast({
            title: "Failed to Submit Report",
            description: errorText(err, "Please try again."),
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report Gig</DialogTitle>
          <DialogDescription>Tell us what is wrong with &ldquo;{gig.title}&rdquo;. Reports are reviewed by the platform admin.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium text-stone-800">Reason</legend>
            {REASONS.map((r) => (
              <label
                key={r.value}
                className={cn(
                  "flex cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 text-sm",
                  reason === r.value ? "border-brand-400 bg-brand-50" : "border-stone-200 hover:bg-stone-50",
                )}
              >
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={r.value}
                  checked={reason === r.value}
                  onChange={() => setReason(r.value)}
                  className="mt-0.5 accent-brand-600"
                />
                {r.label}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-details`}>Details (optional)</Label>
            <Textarea id={`${id}-details`} value={details} onChange={(e) => setDetails(e.target.value)} placeholder="Anything that helps us review it" />
          </div>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!reason || report.isPending}>
              {report.isPending ? "Submitting..." : "Submit Report"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
