/** The Gigstr mark: a bolt on bitcoin orange. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="#f7931a" />
      <path d="M17.5 5 9 18h6l-1.5 9L22 14h-6z" fill="#fff" />
    </svg>
  );
}
