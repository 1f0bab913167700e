// zod as domain/ uses it: told, before any schema is built, never to compile parsers with `new Function`.
// zod finds out whether it may by trying one, which the web app's CSP (no 'unsafe-eval') refuses and
// reports as a violation on every page; the Worker's runtime refuses it anyway. Every domain schema
// imports z from here, so the setting precedes them wherever they load (and stays off the first page).
import { config, z } from "zod";

config({ jitless: true });

export { z };
