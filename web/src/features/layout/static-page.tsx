import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../../components/ui/button";
import { ArrowLeftIcon } from "../../components/ui/icons";

/** Frame of /terms, /privacy and /faq: a Back to Home button, the title, readable text. */
export function StaticPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6">
      <Link to="/" className={buttonClasses("ghost", "md", "-ml-3 self-start")}>
        <ArrowLeftIcon />
        Back to Home
      </Link>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {intro && <div className="text-stone-600">{intro}</div>}
      </header>
      <div className="flex flex-col gap-8 text-[15px] leading-relaxed text-stone-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-stone-900 [&_h3]:font-semibold [&_h3]:text-stone-900 [&_li]:ml-5 [&_ol]:list-decimal [&_ol]:space-y-1 [&_p+p]:mt-3 [&_section]:flex [&_section]:flex-col [&_section]:gap-3 [&_section]:scroll-mt-32 [&_strong]:text-stone-900 [&_ul]:list-disc [&_ul]:space-y-1">
        {children}
      </div>
      <Link to="/" className={buttonClasses("outline", "md", "self-start")}>
        <ArrowLeftIcon />
        Back to Home
      </Link>
    </article>
  );
}
