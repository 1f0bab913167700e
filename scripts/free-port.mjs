/**
 * A free TCP port on 127.0.0.1 for a server a test run or the bench starts itself (the app, a second app,
 * an empty Worker, an inspector).
 *
 * The port is chosen below the kernel's ephemeral range (`ip_local_port_range`), never with `listen(0)`.
 * Between the check and the server's own bind there are seconds (the app starts a relay, then wrangler,
 * then workerd). A port from the ephemeral range can be handed to someone else in that window: to an
 * outgoing connection, to workerd's or Chromium's own `listen(0)`, to another app's relay. Then wrangler
 * stops with "Address already in use" and the run fails. Below that range the kernel hands out nothing by
 * itself; only another explicit choice of the same random port could collide.
 */
import { readFileSync } from "node:fs";
import net from "node:net";

const LOWEST = 10_000;
const TRIES = 50;

/** The first port of the kernel's ephemeral range (Linux's file; 32768, its default, elsewhere). */
function ephemeralStart() {
  try {
    const first = Number.parseInt(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0], 10);
    if (Number.isInteger(first) && first > LOWEST + 1000) return first;
  } catch {
    // not Linux
  }
  return 32_768;
}

function isFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** @returns {Promise<number>} */
export async function freePort() {
  const end = ephemeralStart();
  for (let i = 0; i < TRIES; i++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found below ${end} in ${TRIES} tries`);
}
