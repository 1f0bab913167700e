// The private key field (nsec or hex) with its show/hide toggle: the login dialog's With Key tab and a review
// signed with the key once both use it. The key only ever lives in the caller's state; nothing here keeps it.
import { useState } from "react";
import { EyeIcon, EyeOffIcon } from "../../components/ui/icons";
import { Input } from "../../components/ui/input";

export function PrivateKeyInput({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  /** The ids of the hint and error that describe the field. */
  describedBy?: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        id={id}
        type={visible ? "text" : "password"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="nsec1..."
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className="pr-10 font-mono"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
      />
      <button
        type="button"
        className="absolute top-1/2 right-1 flex h-8 w-8 -translate-y-1/2 cursor-pointer items-center justify-center rounded-md text-stone-500 hover:bg-stone-100"
        aria-label={visible ? "Hide private key" : "Show private key"}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
