// Edit mode of /profile (SPEC.md §2): Profile Information and Payment Settings. Checked with the shared
// rules of domain/profile.ts before anything is sent; empty fields are sent as "" (stored as absent).
import { useId, useState, type FormEvent } from "react";
import { isValidLightningAddress, nip05OnAliasDomainProblem, profileUpdateSchema, type OwnUser } from "../../../../domain/profile";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { BoltIcon, UserIcon } from "../../components/ui/icons";
import { FormField, Input, Textarea, describedBy } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { useAliasDomain } from "../config/use-config";
import { INVALID_LIGHTNING_ADDRESS_TEXT, INVALID_LIGHTNING_ADDRESS_TITLE } from "./profile-texts";
import { useUpdateProfile, type ProfileEdit } from "./use-profile";

export const PROFILE_EDIT_FORM_ID = "profile-edit-form";

type Fields = Required<Pick<ProfileEdit, "displayName" | "profilePicture" | "bio" | "nip05" | "lightningAddress">>;
type FieldErrors = Partial<Record<keyof Fields, string>>;

export function fieldsFromUser(user: OwnUser): Fields {
  return {
    displayName: user.displayName ?? "",
    profilePicture: user.profilePicture ?? "",
    bio: user.bio ?? "",
    nip05: user.nip05 ?? "",
    lightningAddress: user.lightningAddress ?? "",
  };
}

/**
 * The form's own fields; Save and Cancel live in the page header and reach it through `form=` and
 * `onSaved`. Unmounting it (Cancel) drops the edits, so the next edit starts from the user again.
 */
export function ProfileEditForm({ user, onSaved, onPendingChange }: { user: OwnUser; onSaved: () => void; onPendingChange?: (pending: boolean) => void }) {
  const ids = { displayName: useId(), profilePicture: useId(), bio: useId(), nip05: useId(), lightningAddress: useId() };
  const { toast } = useToast();
  const update = useUpdateProfile();
  const aliasDomain = useAliasDomain();
  const [fields, setFields] = useState<Fields>(() => fieldsFromUser(user));
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [name]: e.target.value }));
    setErrors((errs) => ({ ...errs, [name]: undefined }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const edit: Fields = {
      displayName: fields.displayName.trim(),
      profilePicture: fields.profilePicture.trim(),
      bio: fields.bio.trim(),
      nip05: fields.nip05.trim(),
      lightningAddress: fields.lightningAddress.trim(),
    };
    if (edit.lightningAddress && !isValidLightningAddress(edit.lightningAddress)) {
      setErrors({ lightningAddress: INVALID_LIGHTNING_ADDRESS_TEXT });
      toast({ title: INVALID_LIGHTNING_ADDRESS_TITLE, description: INVALID_LIGHTNING_ADDRESS_TEXT, variant: "destructive" });
      return;
    }
    const checked = profileUpdateSchema.safeParse(edit);
    if (!checked.success) {
      const found: FieldErrors = {};
      for (const issue of checked.error.issues) {
        const name = issue.path[0] as keyof Fields;
        found[name] ??= issue.message;
      }
      setErrors(found);
      toast({ title: "Failed to Update Profile", description: checked.error.issues[0]?.message ?? "Please try again.", variant: "destructive" });
      return;
    }
    const nip05Problem = edit.nip05 ? nip05OnAliasDomainProblem(edit.nip05, user.gigstrAlias, aliasDomain) : null;
    if (nip05Problem) {
      setErrors({ nip05: nip05Problem });
      toast({ title: "Failed to Update Profile", description: nip05Problem, variant: "destructive" });
      return;
    }
    onPendingChange?.(true);
    update.mutate(edit, {
      onSuccess: () => {
        toast({ title: "Settings Updated", description: "Your profile has been updated." });
        onSaved();
      },
      onError: (err) => toast({ title: "Failed to Update Profile", description: errorText(err, "Please try again."), variant: "destructive" }),
      onSettled: () => onPendingChange?.(false),
    });
  };

  const text = (name: keyof Fields, label: string, props: { type?: string; placeholder?: string; hint?: string; autoComplete?: string } = {}) => (
    <FormField id={ids[name]} label={label} hint={props.hint} error={errors[name]}>
      <Input
        id={ids[name]}
        type={props.type ?? "text"}
        value={fields[name]}
        onChange={set(name)}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? "off"}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={describedBy(ids[name], props.hint, errors[name])}
      />
    </FormField>
  );

  return (
    <form id={PROFILE_EDIT_FORM_ID} onSubmit={submit} noValidate className="flex flex-col gap-6" aria-label="Edit profile">
      <Card>
        <CardHeader>
          <CardTitle>
            <UserIcon className="text-brand-600" />
            Profile Information
          </CardTitle>
          <CardDescription>What other members see on your public profile.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {text("displayName", "Display Name", { placeholder: "Satoshi", autoComplete: "nickname" })}
          {text("profilePicture", "Profile Picture URL", { type: "url", placeholder: "https://example.com/me.png" })}
          <FormField id={ids.bio} label="Bio" error={errors.bio}>
            <Textarea
              id={ids.bio}
              value={fields.bio}
              onChange={set("bio")}
              rows={4}
              placeholder="What you do, what you are good at"
              aria-invalid={errors.bio ? true : undefined}
              aria-describedby={describedBy(ids.bio, undefined, errors.bio)}
            />
          </FormField>
          {text("nip05", "NIP-05 Identifier", { placeholder: "you@example.com", hint: "Your verified Nostr address, e.g. you@example.com." })}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <BoltIcon className="text-brand-600" />
            Payment Settings
          </CardTitle>
          <CardDescription>A Lightning address must be set before receiving payments.</CardDescription>
        </CardHeader>
        <CardContent>
          {text("lightningAddress", "Lightning Address for Payouts", {
            placeholder: "you@getalby.com",
            hint: "A Lightning address (name@wallet-domain) or an LNURL. A regular email address will not work.",
          })}
        </CardContent>
      </Card>
    </form>
  );
}
