import { Suspense } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { codeAsked, lazyPart } from "./lazy-part";

// The Worker renders its pages with React's string renderer, which does not wait for lazy code (ssr/render.tsx):
// a part still loading is left to the browser. What the render relies on: it can tell which code it asked for,
// wait for it, and get the part drawn by the next render.
describe("a lazily loaded part", () => {
  it("is left to the browser while its code loads, and drawn by the next render once it has arrived", async () => {
    let loads = 0;
    const Greeting = lazyPart(async () => {
      loads += 1;
      return ({ name }: { name: string }) => <p>Hello {name}</p>;
    });
    const page = (
      <Suspense fallback={<p>Loading</p>}>
        <Greeting name="Satoshi" />
      </Suspense>
    );

    const first = renderToString(page);
    expect(first).toContain("<!--$!-->");
    expect(first).toContain("Loading");

    expect(await codeAsked()).toBe(true);
    const second = renderToString(page);
    expect(second).toContain("Hello <!-- -->Satoshi");
    expect(second).not.toContain("Loading");
    expect(second).not.toContain("<!--$!-->");
    // Its code was asked for once, and nothing is loading any more.
    expect(loads).toBe(1);
    expect(await codeAsked()).toBe(false);
  });

  it("whose code failed to load is not waited for again", async () => {
    const Broken = lazyPart<object>(() => Promise.reject(new Error("offline")));
    const page = (
      <Suspense fallback={<p>Loading</p>}>
        <Broken />
      </Suspense>
    );
    expect(renderToString(page)).toContain("<!--$!-->");
    expect(await codeAsked()).toBe(true);
    // Given up again (React keeps the failure), and nothing left to wait for: the Worker serves no page then.
    expect(renderToString(page)).toContain("<!--$!-->");
    expect(await codeAsked()).toBe(false);
  });
});
