// The server's HTTP API as promises (docs/protocol.md), and the tokens kept in this
// browser. Every refusal is an RFC 9457 problem body; it becomes an ApiError with the
// problem's .status, .title, .detail and .field.

/** An HTTP refusal: `message` is the problem's detail, `field` the field at fault. */
export class ApiError extends Error {
  constructor(status, body) {
    const detail = (body && (body.detail || body.title)) || `HTTP ${status}`;
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.title = (body && body.title) || "Error";
    this.detail = detail;
    this.field = (body && body.field) || null;
    this.body = body;
  }
}

/**
 * A request to the server: JSON in (`body`), JSON out (null for 204). `token` goes in the
 * Authorization header. Refusals throw ApiError; a network failure throws ApiError 0.
 */
export async function api(path, { method = "GET", body, token, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let reply;
  try {
    reply = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error && error.name === "AbortError") throw error;
    throw new ApiError(0, { title: "No connection", detail: "The server cannot be reached." });
  }
  if (reply.status === 204) return null;
  const type = reply.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await reply.json().catch(() => null) : null;
  if (!reply.ok) throw new ApiError(reply.status, data);
  return data;
}

export const getJSON = (path, options = {}) => api(path, options);
export const postJSON = (path, body, options = {}) => api(path, { ...options, method: "POST", body });

// --- what the lobby and the replay ask for

export const listGames = () => getJSON("/api/games");
export const listBots = () => getJSON("/api/bots");
export const listTables = () => getJSON("/tables");
export const getTable = (id) => getJSON(`/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => postJSON("/tables", body);
export const checkRuleset = (toml, options = {}, players = null) =>
  postJSON("/api/rulesets/check", { toml, options, players });
export const joinTable = (id, invite, name, seat = null) =>
  postJSON(`/tables/${encodeURIComponent(id)}/join`, { invite, name, seat });
export const uploadReplay = (record) => postJSON("/api/replays", record);
export const getReplay = (replayId) => getJSON(`/api/replays/${encodeURIComponent(replayId)}`);
export const tableReplay = (id, game = null) =>
  getJSON(`/api/tables/${encodeURIComponent(id)}/replay${game ? `?game=${game}` : ""}`);
export const recordUrl = (id, game = null) =>
  `/tables/${encodeURIComponent(id)}/record${game ? `?game=${game}` : ""}`;

// --- tokens kept in this browser (localStorage), so a reload keeps the seat

const seatKey = (id) => `tricktaker.seat.${id}`;
const hostKey = (id) => `tricktaker.host.${id}`;
const inviteKey = (id) => `tricktaker.invite.${id}`;
const NAME_KEY = "tricktaker.name";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* storage refused (private mode): the seat lasts as long as the page */
  }
}

/** This browser's seat at a table: {seat, token}, or null. */
export function seatToken(tableId) {
  try {
    const data = JSON.parse(read(seatKey(tableId)) || "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

export const saveSeat = (tableId, seat, token) =>
  write(seatKey(tableId), JSON.stringify({ seat, token }));
export const forgetSeat = (tableId) => write(seatKey(tableId), null);
export const hostToken = (tableId) => read(hostKey(tableId));
export const saveHost = (tableId, token) => write(hostKey(tableId), token);
/** The invite code of a table this browser created or joined (to show its link again). */
export const savedInvite = (tableId) => read(inviteKey(tableId));
export const saveInvite = (tableId, code) => write(inviteKey(tableId), code);
export const savedName = () => read(NAME_KEY) || "";
export const saveName = (name) => write(NAME_KEY, name);

/** The tables this browser has a seat or the host's token at (ids, newest last). */
export function knownTables() {
  const ids = new Set();
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i) || "";
      const found = /^tricktaker\.(seat|host)\.(.+)$/.exec(key);
      if (found) ids.add(found[2]);
    }
  } catch {
    /* no storage */
  }
  return [...ids];
}

/** The link that invites a person to a table: this page's #/join route. */
export function inviteLink(tableId, invite) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/join/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
}
