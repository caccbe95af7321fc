// @ts-check
// The one place the page keeps things in this browser (localStorage): seat and host
// tokens, names, sheets, and the reader's choices (four-colour deck, theme, sound).
// Every key starts with "tricktaker.". Storage may be refused (a private window, a full
// quota): then reads answer nothing and writes are dropped, and the page works for as
// long as it stays open.

const PREFIX = "tricktaker.";

/**
 * The full key of a name ("seat.ID" -> "tricktaker.seat.ID"); a key that already has the
 * prefix is kept as it is.
 * @param {string} name
 * @returns {string}
 */
function fullKey(name) {
  return name.startsWith(PREFIX) ? name : PREFIX + name;
}

/**
 * The text kept under `name`, or null.
 * @param {string} name
 * @returns {string | null}
 */
export function readText(name) {
  try {
    return localStorage.getItem(fullKey(name));
  } catch {
    return null;
  }
}

/**
 * Keep `value` under `name` (null or undefined forgets it).
 * @param {string} name
 * @param {string | null | undefined} value
 */
export function writeText(name, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(fullKey(name));
    else localStorage.setItem(fullKey(name), value);
  } catch {
    // storage refused: the value lasts as long as the page
  }
}

/**
 * The JSON value kept under `name`, or `fallback` when there is none or it is not JSON.
 * @template T
 * @param {string} name
 * @param {T} fallback
 * @returns {any}
 */
export function readJson(name, fallback) {
  const text = readText(name);
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/**
 * Keep `value` as JSON under `name` (null or undefined forgets it).
 * @param {string} name
 * @param {unknown} value
 */
export function writeJson(name, value) {
  writeText(name, value === null || value === undefined ? null : JSON.stringify(value));
}

/**
 * Forget what is kept under `name`.
 * @param {string} name
 */
export function forget(name) {
  writeText(name, null);
}

/**
 * The names kept that start with `start` ("seat." -> ["seat.T1", ...]), without the
 * "tricktaker." prefix.
 * @param {string} start
 * @returns {string[]}
 */
export function keysWithPrefix(start) {
  const wanted = fullKey(start);
  /** @type {string[]} */
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i) || "";
      if (key.startsWith(wanted)) found.push(key.slice(PREFIX.length));
    }
  } catch {
    // no storage: nothing kept
  }
  return found;
}

/**
 * A choice of the reader's kept as "1"/"0" (the four-colour deck, sound...).
 * @param {string} name
 * @param {boolean} fallback
 * @returns {boolean}
 */
export function readFlag(name, fallback) {
  const text = readText(name);
  return text === null ? fallback : text === "1";
}

/**
 * Keep a choice of the reader's as "1"/"0".
 * @param {string} name
 * @param {boolean} on
 */
export function writeFlag(name, on) {
  writeText(name, on ? "1" : "0");
}
