// @ts-check
// The signed-in session as the page sees it (docs/protocol.md, Accounts). The session
// cookie itself is HttpOnly: the page never reads it. It reads the session's CSRF token
// from the tricktaker_csrf cookie and sends it back as X-CSRF-Token with every request
// that changes something (api.js does); the cookie's presence also tells the page that
// this browser is signed in, without asking the server. It also gathers the tokens this
// browser holds as a guest (seats, hosts, sheets), which signing up or logging in keeps.

import { keysWithPrefix, readJson, readText } from "./storage.js";

const CSRF_COOKIE = "tricktaker_csrf";

/**
 * The session's CSRF token, or null when this browser is not signed in.
 * @returns {string | null}
 */
export function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CSRF_COOKIE && rest.length) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/**
 * The header that carries the CSRF token (none when not signed in), for a request that
 * changes something.
 * @returns {Record<string, string>}
 */
export function csrfHeaders() {
  const token = csrfToken();
  return token ? { "X-CSRF-Token": token } : {};
}

/** @typedef {{id: string, token: string}} Proof */
/** @typedef {{seats: Proof[], hosts: Proof[], sheets: Proof[]}} Claim */

/**
 * Every token this browser holds: its seats' tokens, its tables' host tokens and its
 * sheets' edit tokens, each with its table's or sheet's id.
 * @returns {Claim}
 */
export function heldTokens() {
  /** @type {Claim} */
  const held = { seats: [], hosts: [], sheets: [] };
  for (const key of keysWithPrefix("seat.")) {
    const kept = readJson(key, null);
    if (kept && typeof kept.token === "string") held.seats.push({ id: key.slice(5), token: kept.token });
  }
  for (const key of keysWithPrefix("host.")) {
    const token = readText(key);
    if (token) held.hosts.push({ id: key.slice(5), token });
  }
  for (const key of keysWithPrefix("sheet.")) {
    const kept = readJson(key, null);
    if (kept && typeof kept.token === "string") held.sheets.push({ id: key.slice(6), token: kept.token });
  }
  return held;
}

/**
 * How many tables and sheets this browser holds tokens for.
 * @returns {{tables: number, sheets: number}}
 */
export function heldCount() {
  const held = heldTokens();
  const tables = new Set([...held.seats, ...held.hosts].map((proof) => proof.id));
  return { tables: tables.size, sheets: held.sheets.length };
}

/**
 * The signed-in user as GET /api/me answers (null: a guest, or a session that ended).
 * @returns {Promise<any | null>}
 */
export async function currentAccount() {
  if (!csrfToken()) return null;
  try {
    const reply = await fetch("/api/me", { headers: { Accept: "application/json" } });
    return reply.ok ? await reply.json() : null;
  } catch {
    return null;
  }
}

/**
 * Link to the signed-in user what this browser holds and the account does not list
 * yet (a seat taken since the last visit): POST /api/me/claim.
 * @param {any} me GET /api/me's answer
 */
async function claimNew(me) {
  const held = heldTokens();
  const tables = new Set((me.tables || []).map((/** @type {{id: string}} */ t) => t.id));
  const sheets = new Set((me.sheets || []).map((/** @type {{id: string}} */ s) => s.id));
  const fresh = {
    seats: held.seats.filter((proof) => !tables.has(proof.id)),
    hosts: held.hosts.filter((proof) => !tables.has(proof.id)),
    sheets: held.sheets.filter((proof) => !sheets.has(proof.id)),
  };
  if (!fresh.seats.length && !fresh.hosts.length && !fresh.sheets.length) return;
  try {
    await fetch("/api/me/claim", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeaders() },
      body: JSON.stringify(fresh),
    });
  } catch {
    // the next visit tries again
  }
}

/**
 * Show the header's account link: the user's name, or "Log in". Signed in, it also
 * keeps in the account what this browser gained since (a new seat, a new sheet).
 * @param {any} [known] GET /api/me's answer when the caller has it (null: a guest)
 */
export async function showAccountLink(known) {
  const link = document.getElementById("account-link");
  const me = known === undefined ? await currentAccount() : known;
  if (link) {
    link.textContent = me ? me.user.name : "Log in";
    // Signed in, the name leads to the player's own page (which links the account's).
    link.setAttribute("href", me ? `#/player/${encodeURIComponent(me.user.name)}` : "#/account");
    link.setAttribute("aria-label", me ? `Your player's page: ${me.user.name}` : "Log in or sign up");
  }
  if (me && known === undefined) await claimNew(me);
}
