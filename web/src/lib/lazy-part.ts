// A part of the app whose code loads when it is first drawn (React.lazy), with what the Worker's render needs:
// React's string renderer (ssr/render.tsx) does not wait for code, so the render asks which code it found still
// loading, waits for it, and renders again.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** The code of lazy parts that a render asked for and that has not arrived yet. */
const loading = new Set<Promise<unknown>>();

/** `load` answers the part's component; React asks for it the first time it draws the part. */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const request = load().then((component) => ({ default: component }));
    loading.add(request);
    const settled = () => loading.delete(request);
    request.then(settled, settled);
    return request;
  });
}

/** Settles once the code every render asked for so far has arrived (or failed); false when none was loading. */
export async function codeAsked(): Promise<boolean> {
  if (loading.size === 0) return false;
  await Promise.allSettled([...loading]);
  return true;
}
