// Adding or editing a portfolio item (title, description, image URL, project URL, category), checked with
// the rules the Worker uses (domain/collaboration-schemas.ts, loaded when first needed).
import { useId, useState, type FormEvent } from "react";
import { CATEGORIES } from "../../../../domain/gig";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { FormField, Input, Textarea, describedBy } from "../../components/ui/input";
import type { PortfolioItem } from "./types";
import type { PortfolioItemInput } from "./use-profile";

type Field = keyof PortfolioItemInput;
type Fields = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string>>;

const FIELD_ORDER: Field[] = ["title", "description", "imageUrl", "projectUrl", "category"];

function fieldsOf(item: PortfolioItem | null): Fields {
  return {
    title: item?.title ?? "",
    description: item?.description ?? "",
    imageUrl: item?.imageUrl ?? "",
    projectUrl: item?.projectUrl ?? "",
    category: item?.category ?? "",
  };
}

/** Checks the fields with the shared schema: the input to send, or the first message per field. */
export async function checkPortfolioFields(fields: Fields): Promise<{ input: PortfolioItemInput } | { errors: FieldErrors }> {
  const { portfolioItemSchema } = await import("../../../../domain/collaboration-schemas");
  const checked = portfolioItemSchema.safeParse(fields);
  if (!checked.success) {
    const errors: FieldErrors = {};
    for (const issue of checked.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && FIELD_ORDER.includes(field as Field)) errors[field as Field] ??= issue.message;
    }
    return { errors };
  }
  const { title, description, imageUrl, projectUrl, category } = checked.data;
  return { input: { title, description: description ?? null, imageUrl: imageUrl ?? null, projectUrl: projectUrl ?? null, category: category ?? null } };
}

export interface PortfolioItemDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The item being edited; null to add a new one. */
  item: PortfolioItem | null;
  pending: boolean;
  onSubmit: (input: PortfolioItemInput) => void;
}

export function PortfolioItemDialog({ open, onOpenChange, item, pending, onSubmit }: PortfolioItemDialogProps) {
  const baseId = useId();
  const ids = Object.fromEntries(FIELD_ORDER.map((f) => [f, `${baseId}-${f}`])) as Record<Field, string>;
  const categoriesId = `${baseId}-categories`;
  const [fields, setFields] = useState<Fields>(() => fieldsOf(item));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);

  const set = (field: Field) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [field]: e.target.value }));
    setErrors((errs) => ({ ...errs, [field]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecking(true);
    const result = await checkPortfolioFields(fields).finally(() => setChecking(false));
    if ("errors" in result) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((f) => result.errors[f]);
      if (first) document.getElementById(ids[first])?.focus();
      return;
    }
    onSubmit(result.input);
  };

  const hints: Partial<Record<Field, string>> = {
    imageUrl: "A link to a picture of the work (https://...).",
    projectUrl: "Where people can see the finished project.",
  };

  const control = (field: Field) => ({
    id: ids[field],
    value: fields[field],
    onChange: set(field),
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": describedBy(ids[field], hints[field], errors[field]),
  });

  const editing = item !== null;
  const busy = pending || checking;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? "Edit Portfolio Item" : "Add Portfolio Item"}</DialogTitle>
          <DialogDescription>Show work you are proud of. Only the title is required.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={editing ? "Edit portfolio item" : "Add portfolio item"}>
          <FormField id={ids.title} label="Title" error={errors.title}>
            <Input {...control("title")} required maxLength={100} placeholder="Landing page for a coffee roaster" autoComplete="off" />
          </FormField>
          <FormField id={ids.description} label="Description" error={errors.description}>
            <Textarea {...control("description")} rows={3} maxLength={1000} placeholder="What you did and how it turned out" />
          </FormField>
          <FormField id={ids.imageUrl} label="Image URL" hint={hints.imageUrl} error={errors.imageUrl}>
            <Input {...control("imageUrl")} type="url" inputMode="url" placeholder="https://example.com/shot.png" autoComplete="off" spellCheck={false} />
          </FormField>
          <FormField id={ids.projectUrl} label="Project URL" hint={hints.projectUrl} error={errors.projectUrl}>
            <Input {...control("projectUrl")} type="url" inputMode="url" placeholder="https://example.com" autoComplete="off" spellCheck={false} />
          </FormField>
          <FormField id={ids.category} label="Category" error={errors.category}>
            <Input {...control("category")} list={categoriesId} maxLength={50} placeholder="Design" autoComplete="off" />
            <datalist id={categoriesId}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </FormField>
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {pending ? "Saving..." : editing ? "Save Changes" : "Add Item"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
