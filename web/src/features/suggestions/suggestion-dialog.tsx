// The suggestion box (SPEC.md §2, §5): a trimmed, required text sent by a member; visitors are asked to
// log in first. 'Thank You!' on success, then the dialog closes and starts empty next time.
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { LockIcon } from "../../components/ui/icons";
import { FormField, Textarea, describedBy } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { useAuth } from "../auth/auth-context";
import { LoginButton } from "../auth/login-required-card";
import { OWN_DIALOG, SUGGESTION_MAX_LENGTH, SUGGESTION_REQUIRED, useSendSuggestion } from "./use-suggestions";

export function SuggestionDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user } = useAuth();
  const { toast } = useToast();
  const send = useSendSuggestion();
  const fieldId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const hint = "Ideas, features you miss, anything that got in your way.";

  const setOpen = (next: boolean) => {
    if (!next) {
      setText("");
      setError(null);
    }
    onOpenChange(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const suggestion = text.trim();
    if (!suggestion) {
      setError(SUGGESTION_REQUIRED);
      document.getElementById(fieldId)?.focus();
      return;
    }
    send.mutate(suggestion, {
      onSuccess: () => {
        toast({ title: "Thank You!", description: "Your suggestion has been sent to the Gigstr team." });
        setOpen(false);
      },
      onError: (err) => toast({ title: "Submission Failed", description: errorText(err, "Please try again."), variant: "destructive" }),
    });
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent {...{ [OWN_DIALOG]: "" }}>
        <DialogHeader>
          <DialogTitle>Suggestion Box</DialogTitle>
          <DialogDescription>Tell us what would make Gigstr better. We read every suggestion.</DialogDescription>
        </DialogHeader>
        {user ? (
          <form onSubmit={submit} noValidate className="flex flex-col gap-4">
            <FormField id={fieldId} label="Your suggestion or feature request" hint={hint} error={error}>
              <Textarea
                id={fieldId}
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  setError(null);
                }}
                rows={5}
                maxLength={SUGGESTION_MAX_LENGTH}
                placeholder="It would be great if..."
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy(fieldId, hint, error)}
              />
            </FormField>
            <DialogFooter className="mt-2">
              <Button variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={send.isPending}>
                {send.isPending ? "Sending..." : "Send Suggestion"}
              </Button>
            </DialogFooter>
          </form>
        ) : (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-stone-200 bg-stone-50 p-6 text-center">
            <span className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 text-brand-700">
              <LockIcon size={20} />
            </span>
            <h3 className="font-semibold text-stone-900">Login Required</h3>
            <p className="text-sm text-stone-600">Please login with Nostr to send a suggestion.</p>
            <LoginButton className="mt-1" leaving={() => setOpen(false)} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
