import { copyText } from "../../lib/clipboard";
import { cn } from "../../lib/cn";
import { CopyIcon } from "./icons";
import { useToast } from "./toast";

/** An icon button that copies `value`, then toasts Copied or Copy Failed (SPEC.md §8). */
export function CopyButton({
  value,
  label,
  copiedDescription,
  className,
}: {
  value: string;
  /** Accessible name, e.g. "Copy npub". */
  label: string;
  copiedDescription?: string;
  className?: string;
}) {
  const { toast } = useToast();
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={cn("inline-flex h-8 w-8 shrink-0 cursor-pointer items-center justify-center rounded-md text-stone-500 hover:bg-stone-100 hover:text-stone-900", className)}
      onClick={async () => {
        if (await copyText(value)) toast({ title: "Copied", description: copiedDescription });
        else toast({ title: "Copy Failed", description: "Could not copy to clipboard.", variant: "destructive" });
      }}
    >
      <CopyIcon size={16} />
    </button>
  );
}
