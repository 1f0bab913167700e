// The admin's PIN screen (SPEC.md §2 /admin, §5 Admin PIN, §8 Access Denied): six dots, digits 1-9
// and 0, Clear and OK. No digit after the sixth; OK only with six digits and not while sending. A
// refusal clears the PIN; one whose message says 'blocked' also ends the admin session.
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { ADMIN_PIN_LENGTH } from "../../../../domain/admin";
import { Button, buttonClasses } from "../../components/ui/button";
import { LockIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { LogoMark } from "../layout/logo";
import { adminJson, useAdminSession } from "./admin-session";

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"] as const;

export function PinPad() {
  const { start, end } = useAdminSession();
  const { toast } = useToast();
  const [pin, setPin] = useState("");

  const signIn = useMutation({
    mutationFn: (entered: string) => adminJson<{ success: boolean; adminToken: string }>(null, "POST", "/api/admin/auth", { pin: entered }),
    onSuccess: (answer) => {
      setPin("");
      start(answer.adminToken);
      toast({ title: "Access Granted", description: "Welcome to the admin panel." });
    },
    onError: (err) => {
      const message = errorText(err, "Incorrect PIN");
      setPin("");
      toast({ title: "Access Denied", description: message, variant: "destructive" });
      if (message.toLowerCase().includes("blocked")) end();
    },
  });

  const sending = signIn.isPending;
  const full = pin.length >= ADMIN_PIN_LENGTH;
  const press = useCallback((digit: string) => setPin((p) => (p.length >= ADMIN_PIN_LENGTH ? p : p + digit)), []);
  const clear = useCallback(() => setPin(""), []);
  const submit = useCallback(() => {
    if (pin.length === ADMIN_PIN_LENGTH && !sending) signIn.mutate(pin);
  }, [pin, sending, signIn]);

  // A keyboard works too: digits, Backspace, Escape and Enter.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || sending) return;
      if (/^\d$/.test(event.key)) press(event.key);
      else if (event.key === "Backspace") setPin((p) => p.slice(0, -1));
      else if (event.key === "Escape") clear();
      else if (event.key === "Enter" && (event.target as HTMLElement | null)?.tagName !== "BUTTON") submit();
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [press, clear, submit, sending]);

  const keyClasses = "h-16 text-2xl font-semibold tabular-nums sm:h-[4.5rem]";

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-stone-50 px-4 py-10">
      <div className="flex w-full max-w-xs flex-col items-center gap-6">
        <div className="flex flex-col items-center gap-2 text-center">
          <LogoMark size={44} />
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-stone-900">
            <LockIcon size={20} /> Admin Panel
          </h1>
          <p className="text-sm text-stone-600">Enter the 6-digit admin PIN.</p>
        </div>

        <div
          role="img"
          aria-label={`${pin.length} of ${ADMIN_PIN_LENGTH} digits entered`}
          data-testid="pin-dots"
          className="flex items-center gap-3"
        >
          {Array.from({ length: ADMIN_PIN_LENGTH }, (_, i) => (
            <span
              key={i}
              data-filled={i < pin.length}
              className={cn("h-4 w-4 rounded-full border-2 transition-colors", i < pin.length ? "border-brand-500 bg-brand-500" : "border-stone-300 bg-white")}
            />
          ))}
        </div>

        <div className="grid w-full grid-cols-3 gap-3" role="group" aria-label="PIN keypad">
          {DIGITS.map((d) => (
            <Button key={d} variant="outline" className={keyClasses} disabled={full || sending} onClick={() => press(d)}>
              {d}
            </Button>
          ))}
          <Button variant="ghost" className="h-16 text-base sm:h-[4.5rem]" disabled={pin.length === 0 || sending} onClick={clear}>
            Clear
          </Button>
          <Button variant="outline" className={keyClasses} disabled={full || sending} onClick={() => press("0")}>
            0
          </Button>
          <Button className="h-16 text-base sm:h-[4.5rem]" disabled={!full || sending} onClick={submit} aria-label={sending ? "Checking PIN" : "OK"}>
            {sending ? "..." : "OK"}
          </Button>
        </div>

        <Link to="/" className={buttonClasses("ghost", "sm", "text-stone-600")}>
          Back to Home
        </Link>
      </div>
    </main>
  );
}
