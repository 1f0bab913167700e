// The lines of text a PDF made by pdf-lib shows: its Flate content streams inflated, each `<hex> Tj`
// (how pdf-lib writes text in a standard font) decoded. Enough to read our receipts in tests.
async function inflate(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new TextDecoder("latin1").decode(await new Response(stream).arrayBuffer());
}

export async function pdfTextLines(pdf: ArrayBuffer): Promise<string[]> {
  const bytes = new Uint8Array(pdf);
  const text = new TextDecoder("latin1").decode(bytes);
  const lines: string[] = [];
  for (let at = text.indexOf("stream\n"); at !== -1; at = text.indexOf("stream\n", at + 1)) {
    if (text.slice(at - 3, at) === "end") continue;
    const start = at + "stream\n".length;
    const end = text.indexOf("\nendstream", start);
    const dict = text.slice(text.lastIndexOf("<<", at), at);
    if (end === -1 || !dict.includes("/FlateDecode")) continue;
    let content: string;
    try {
      content = await inflate(bytes.slice(start, end));
    } catch {
      continue; // not a content stream we can read (fonts, images)
    }
    for (const m of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      lines.push(m[1]!.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))));
    }
  }
  return lines;
}
