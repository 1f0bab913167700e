import { cn } from "../../lib/cn";

/**
 * A Lightning address on a line of its own: it may break after the @ first, and anywhere only when one part
 * alone is wider than the line, so a long address wraps instead of overflowing or standing one letter a line.
 */
export function LightningAddressLine({ address, className }: { address: string; className?: string }) {
  const at = address.indexOf("@");
  return (
    <p className={cn("[overflow-wrap:anywhere]", className)}>
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </p>
  );
}
