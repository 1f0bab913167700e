import type { ReactNode } from "react";
import { Card } from "../../components/ui/card";

export function StatCard({ label, value, icon }: { label: string; value: ReactNode; icon?: ReactNode }) {
  return (
    <Card className="flex flex-col gap-1 p-4">
      <span className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-stone-500 uppercase">
        {icon}
        {label}
      </span>
      <span className="text-2xl font-bold text-stone-900 tabular-nums">{value}</span>
    </Card>
  );
}

export function StatGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <section aria-label={label} className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {children}
    </section>
  );
}
