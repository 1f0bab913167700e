// Delivered files with download buttons (SPEC.md §2 Attachments): name, size in KB with one decimal.
import { useState } from "react";
import type { AttachmentView } from "../../../../domain/files";
import { fileSizeKb } from "../../../../domain/format";
import { Button } from "../../components/ui/button";
import { DownloadIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { downloadAttachment } from "./files-api";

export function AttachmentItem({ attachment, className }: { attachment: AttachmentView; className?: string }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(attachment);
      toast({ title: "Download Started", description: attachment.filename });
    } catch (err) {
      toast({ title: "Download Failed", description: errorText(err, "Download failed"), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={cn("flex items-center justify-between gap-3 rounded-lg border border-stone-200 bg-white px-3 py-2", className)}>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-stone-900" title={attachment.filename}>
          {attachment.filename}
        </p>
        <p className="text-xs text-stone-500">{fileSizeKb(attachment.fileSize)}</p>
      </div>
      <Button size="sm" variant="outline" onClick={download} disabled={busy} aria-label={`Download ${attachment.filename}`}>
        <DownloadIcon size={14} />
        {busy ? "Downloading..." : "Download"}
      </Button>
    </div>
  );
}

/** The list; renders nothing when there are no files. */
export function AttachmentList({ attachments, title = "Delivered files" }: { attachments: readonly AttachmentView[]; title?: string }) {
  if (attachments.length === 0) return null;
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h3 className="text-sm font-semibold text-stone-800">{title}</h3>
      <ul className="flex flex-col gap-2">
        {attachments.map((a) => (
          <li key={a.id}>
            <AttachmentItem attachment={a} />
          </li>
        ))}
      </ul>
    </section>
  );
}
