/** The WebSocket address of a path on this site: wss: on an https page, ws: otherwise. */
export function socketUrl(pathAndQuery: string, location: Pick<Location, "protocol" | "host"> = window.location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${pathAndQuery}`;
}
