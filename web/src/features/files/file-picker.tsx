// The work submission's file picker (SPEC.md §2 Attachments, §5): several files, each at most 50 MB.
// Files upload as soon as they are picked (POST /api/objects/upload, then PUT); the submission then
// quotes the finished uploads. Controlled: the panel owns the list and sends it with the work.
import { useId, useRef, useState, type ChangeEvent } from "react";
import { FILE_TOO_LARGE_TITLE, MAX_ATTACHMENTS_PER_SUBMISSION, fileTooLargeText, type AttachmentRef } from "../../../../domain/files";
import { fileSizeKb } from "../../../../domain/format";
import { Button } from "../../components/ui/button";
import { XIcon } from "../../components/ui/icons";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { isTooLarge, uploadAttachment } from "./files-api";

export interface FilePickerProps {
  /** The finished uploads, to send as the submission's `attachments`. */
  value: AttachmentRef[];
  onChange: (attachments: AttachmentRef[]) => void;
  /** Told when uploads start and end, so the submit button can wait for them. */
  onUploadingChange?: (uploading: boolean) => void;
  disabled?: boolean;
  label?: string;
}

export function FilePicker({ value, onChange, onUploadingChange, disabled, label = "Attach files (optional)" }: FilePickerProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { toast } = useToast();
  const [uploading, setUploading] = useState(false);
  // Uploads finish after the props were read; keep the latest list so none is lost.
  const latest = useRef(value);
  latest.current = value;
  const full = value.length >= MAX_ATTACHMENTS_PER_SUBMISSION;

  const setBusy = (busy: boolean) => {
    setUploading(busy);
    onUploadingChange?.(busy);
  };

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = ""; // the same file can be picked again
    const fitting = picked.filter((file) => {
      if (!isTooLarge(file)) return true;
      toast({ title: FILE_TOO_LARGE_TITLE, description: fileTooLargeText(file.name), variant: "destructive" });
      return false;
    });
    // The submission takes at most MAX_ATTACHMENTS_PER_SUBMISSION: the rest are left out, and the toast says so.
    const leftOut = fitting.splice(Math.max(MAX_ATTACHMENTS_PER_SUBMISSION - latest.current.length, 0)).length;
    const leftOutText = leftOut ? ` At most ${MAX_ATTACHMENTS_PER_SUBMISSION} files per submission: ${leftOut} not added.` : "";
    if (fitting.length === 0) return;
    setBusy(true);
    const uploaded: AttachmentRef[] = [];
    try {
      for (const file of fitting) uploaded.push(await uploadAttachment(file));
      toast({ title: "Files Uploaded", description: `${uploaded.length} ${uploaded.length === 1 ? "file" : "files"} uploaded successfully.${leftOutText}` });
    } catch (err) {
      toast({ title: "Upload Failed", description: errorText(err), variant: "destructive" });
    } finally {
      if (uploaded.length > 0) onChange([...latest.current, ...uploaded]);
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          id={id}
          type="file"
          multiple
          className="sr-only"
          // The button beside it is the control people use: the input itself is out of the tab order and hidden
          // from assistive tech (an unlabelled second control for the same thing).
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          disabled={disabled || uploading || full}
          aria-describedby={`${id}-hint`}
        />
        <Button variant="outline" size="sm" disabled={disabled || uploading || full} onClick={() => inputRef.current?.click()} aria-controls={id}>
          {uploading ? "Uploading..." : label}
        </Button>
        <span id={`${id}-hint`} className="text-xs text-stone-500">
          Several files allowed (up to {MAX_ATTACHMENTS_PER_SUBMISSION}), 50MB each at most.
        </span>
      </div>
      {value.length > 0 && (
        <ul className="flex flex-col gap-1" aria-label="Files to deliver">
          {value.map((file) => (
            <li key={file.url} className="flex items-center justify-between gap-2 rounded-md bg-stone-50 px-2 py-1 text-sm">
              <span className="min-w-0 truncate" title={file.filename}>
                {file.filename}
              </span>
              <span className="flex shrink-0 items-center gap-1 text-xs text-stone-500">
                {fileSizeKb(file.fileSize)}
                <button
                  type="button"
                  className="rounded p-1 text-stone-500 hover:bg-stone-200 hover:text-stone-800 disabled:opacity-50"
                  aria-label={`Remove ${file.filename}`}
                  disabled={disabled}
                  onClick={() => onChange(latest.current.filter((f) => f.url !== file.url))}
                >
                  <XIcon size={14} />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
