// A part of the app whose code loads when it is first drawn (React.lazy), with what the Worker's render needs:
// React's string renderer (ssr/render.tsx) does not wait for code, so the render asks which parts it found still
// loading, waits for those, and renders again.
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** The code of lazy parts that a render asked for and that has not arrived yet. */
const loading = new Set<Promise<unknown>>();

/**
 * `load` answers the part's component. Once its code is in, React draws the part at once wherever it appears,
 * without suspending: its `lazy` reads a thenable's answer as soon as `then` hands it over.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  type Module = { default: ComponentType<P> };
  let loaded: Module | null = null;
  let asked: Promise<Module> | null = null;
  return lazy(() => {
    const ready = loaded;
    if (ready) return { then: (answer: (module: Module) => void) => answer(ready) } as Promise<Module>;
    if (!asked) {
      const request = load().then((component) => (loaded = { default: component }));
      asked = request;
      loading.add(request);
      const settled = () => loading.delete(request);
      request.then(settled, settled);
    }
    return asked;
  });
}

/** Settles once the code every render asked for so far has arrived (or failed); false when none was loading. */
export async function codeAsked(): Promise<boolean> {
  if (loading.size === 0) return false;
  await Promise.allSettled([...loading]);
  return true;
}
