// @ts-check
// The server's HTTP API as promises (docs/protocol.md), and the tokens kept in this
// browser. Every refusal is an RFC 9457 problem body; it becomes an ApiError with the
// problem's .status, .title, .detail and .field.

import { csrfHeaders } from "./account-session.js";
import { forget, keysWithPrefix, readJson, readText, writeJson, writeText } from "./storage.js";

/**
 * An RFC 9457 problem body, as the server sends it.
 * @typedef {{title?: string, detail?: string, field?: string | null, status?: number, [key: string]: unknown}} Problem
 */

/** An HTTP refusal: `message` is the problem's detail, `field` the field at fault. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {Problem | null} body the problem body, if the reply had one
   */
  constructor(status, body) {
    const detail = (body && (body.detail || body.title)) || `HTTP ${status}`;
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.title = (body && body.title) || "Error";
    this.detail = detail;
    /** @type {string | null} */
    this.field = (body && body.field) || null;
    this.body = body;
  }
}

/**
 * What went wrong, for a person: an error's message (an ApiError's is the problem's
 * detail), or the thrown value as text.
 * @param {unknown} error
 * @returns {string}
 */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * @typedef {object} RequestOptions
 * @property {string} [method] GET unless given
 * @property {unknown} [body] sent as JSON
 * @property {string | null} [token] sent as a Bearer token
 * @property {AbortSignal} [signal]
 */

/**
 * A request to the server: JSON in (`body`), JSON out (null for 204). `token` goes in the
 * Authorization header. Refusals throw ApiError; a network failure throws ApiError 0.
 * The answer is the server's JSON as it is (docs/protocol.md describes each).
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body, token, signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET" && method !== "HEAD") Object.assign(headers, csrfHeaders()); // signed in
  let reply;
  try {
    reply = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") throw error;
    throw new ApiError(0, { title: "No connection", detail: "The server cannot be reached." });
  }
  if (reply.status === 204) return null;
  const type = reply.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await reply.json().catch(() => null) : null;
  if (!reply.ok) throw new ApiError(reply.status, data);
  return data;
}

/**
 * @param {string} path
 * @param {RequestOptions} [options]
 */
export const getJSON = (path, options = {}) => api(path, options);
/**
 * @param {string} path
 * @param {unknown} body
 * @param {RequestOptions} [options]
 */
export const postJSON = (path, body, options = {}) => api(path, { ...options, method: "POST", body });

// --- what the server answers (docs/protocol.md; the server's pydantic models)

/**
 * A seat as everyone sees it (0-based `seat`, as on the wire).
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {"human" | "bot"} kind
 * @property {string | null} bot
 * @property {string | null} name
 * @property {"free" | "bot" | "connected" | "away" | "replaced"} state
 * @property {boolean} [open] a person's seat anyone may take from the open tables
 *   (protocol 1.3); else kept for whoever has the invite
 */

/**
 * A table as everyone sees it.
 * @typedef {object} TableInfo
 * @property {string} id
 * @property {string} game
 * @property {Record<string, unknown>} options
 * @property {Record<string, unknown>} [ruleset] the table's rules as data (`name`...)
 * @property {number} players
 * @property {"waiting" | "playing" | "finished"} status
 * @property {number} game_number
 * @property {SeatInfo[]} seats
 * @property {boolean} [practice] every other seat a bot's: its person may undo (1.3)
 */

/**
 * An option of a game, as the lobby shows it.
 * @typedef {object} GameOption
 * @property {string} name
 * @property {string} type "bool" or "int"
 * @property {boolean | number} default
 * @property {number | null} min
 * @property {number | null} max
 * @property {(boolean | number)[] | null} choices
 * @property {string} help
 * @property {number[]} players
 */

/**
 * A shipped game or a house-rules file, as the lobby shows it.
 * @typedef {object} GameInfo
 * @property {string} id
 * @property {string} name
 * @property {string} description
 * @property {{min: number, max: number}} players
 * @property {number} default_players
 * @property {GameOption[]} options
 * @property {Record<string, string>} unavailable
 * @property {string | null} rules_url
 */

/**
 * A bot a seat may have.
 * @typedef {{id: string, label: string, spec: string}} BotLevel
 */

/**
 * One error of a house-rules file, located as the command line locates it.
 * @typedef {object} RulesetError
 * @property {string} [text]
 * @property {string | null} [source]
 * @property {number | null} [line]
 * @property {number | null} [column]
 * @property {string | null} [field]
 * @property {string | null} [option]
 * @property {string} message
 */

/**
 * @typedef {object} RulesetCheck
 * @property {boolean} ok
 * @property {RulesetError[]} errors
 * @property {GameInfo | null} game
 * @property {string | null} [based_on]
 * @property {string[]} [changes]
 */

/**
 * @typedef {{table: TableInfo, host_token: string, invite: string, seat: number | null, seat_token: string | null}} CreatedTable
 * @typedef {{table: TableInfo, invite: string | null}} OpenTable
 * @typedef {{seat: number, seat_token: string}} Joined
 */

// --- what the lobby and the replay ask for

/** @returns {Promise<GameInfo[]>} */
export const listGames = () => getJSON("/api/games");
/** @returns {Promise<BotLevel[]>} */
export const listBots = () => getJSON("/api/bots");
/** @returns {Promise<OpenTable[]>} */
export const listTables = () => getJSON("/tables");
/**
 * @param {string} id
 * @returns {Promise<TableInfo>}
 */
export const getTable = (id) => getJSON(`/tables/${encodeURIComponent(id)}`);
/**
 * @param {Record<string, unknown>} body
 * @returns {Promise<CreatedTable>}
 */
export const createTable = (body) => postJSON("/tables", body);
/**
 * @param {string} toml
 * @param {Record<string, unknown>} [options]
 * @param {number | null} [players]
 * @returns {Promise<RulesetCheck>}
 */
export const checkRuleset = (toml, options = {}, players = null) =>
  postJSON("/api/rulesets/check", { toml, options, players });
/**
 * @param {string} id
 * @param {string} invite
 * @param {string} name
 * @param {number | null} [seat]
 * @returns {Promise<Joined>}
 */
export const joinTable = (id, invite, name, seat = null) =>
  postJSON(`/tables/${encodeURIComponent(id)}/join`, { invite, name, seat });
/** @param {unknown} record */
export const uploadReplay = (record) => postJSON("/api/replays", record);
/** @param {string} replayId */
export const getReplay = (replayId) => getJSON(`/api/replays/${encodeURIComponent(replayId)}`);
/**
 * @param {string} id
 * @param {number | null} [game]
 */
export const tableReplay = (id, game = null) =>
  getJSON(`/api/tables/${encodeURIComponent(id)}/replay${game ? `?game=${game}` : ""}`);
/**
 * @param {string} id
 * @param {number | null} [game]
 */
export const recordUrl = (id, game = null) =>
  `/tables/${encodeURIComponent(id)}/record${game ? `?game=${game}` : ""}`;

// --- tokens kept in this browser (storage.js), so a reload keeps the seat

/** @typedef {{seat: number, token: string}} SeatToken */

/**
 * This browser's seat at a table: {seat, token}, or null.
 * @param {string} tableId
 * @returns {SeatToken | null}
 */
export function seatToken(tableId) {
  const data = readJson(`seat.${tableId}`, null);
  return data && typeof data === "object" && typeof data.token === "string" ? data : null;
}

/**
 * Keep this browser's seat at a table.
 * @param {string} tableId
 * @param {number} seat
 * @param {string} token
 */
export const saveSeat = (tableId, seat, token) => writeJson(`seat.${tableId}`, { seat, token });
/** @param {string} tableId */
export const forgetSeat = (tableId) => forget(`seat.${tableId}`);
/**
 * The host's token of a table this browser created, or null.
 * @param {string} tableId
 * @returns {string | null}
 */
export const hostToken = (tableId) => readText(`host.${tableId}`);
/**
 * @param {string} tableId
 * @param {string} token
 */
export const saveHost = (tableId, token) => writeText(`host.${tableId}`, token);
/**
 * The invite code of a table this browser created or joined (to show its link again).
 * @param {string} tableId
 * @returns {string | null}
 */
export const savedInvite = (tableId) => readText(`invite.${tableId}`);
/**
 * @param {string} tableId
 * @param {string | null} code
 */
export const saveInvite = (tableId, code) => writeText(`invite.${tableId}`, code);
/** The name this browser last played under ("" when none). */
export const savedName = () => readText("name") || "";
/** @param {string} name */
export const saveName = (name) => writeText("name", name);

/**
 * The tables this browser has a seat or the host's token at (ids).
 * @returns {string[]}
 */
export function knownTables() {
  const ids = new Set(
    [...keysWithPrefix("seat."), ...keysWithPrefix("host.")].map((key) =>
      key.slice(key.indexOf(".") + 1),
    ),
  );
  return [...ids];
}

/**
 * The link that invites a person to a table: this page's #/join route.
 * @param {string} tableId
 * @param {string} invite
 * @returns {string}
 */
export function inviteLink(tableId, invite) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/join/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
}
