// @ts-check
// The scorekeeper's start page and its storage in this browser (scorekeeper.js mounts
// them): a form that starts a sheet (the game, its options, the players in seating
// order, the first dealer), the import of a JSON sheet, and the sheets kept here.
//
// Kept in this browser (storage.js): sheet.ID = {token, view, game, name, players,
// created, via, editKey} (via "link": the token is an edit link's key; editKey: the edit
// link this keeper gave out last); sheetqueue.ID = the entries waiting to be sent;
// sheetcache.ID = the last sheet seen (shown while the server cannot be reached).

import { api, listGames } from "./api.js";
import { clear, el } from "./dom.js";
import { keysWithPrefix, readJson, writeJson } from "./storage.js";

// ------------------------------------------------------------------ storage

/**
 * A sheet kept in this browser: the edit token (or an edit link's key) and what the start
 * page lists.
 * @typedef {{token: string, view?: string | null, game?: string, name?: string,
 *   players?: string[], created?: number, via?: string, editKey?: string | null}} Kept
 */

/** @param {string} id */
export const keyOf = (id) => `sheet.${id}`;
/** @param {string} id */
export const queueKeyOf = (id) => `sheetqueue.${id}`;
/** @param {string} id */
export const cacheKeyOf = (id) => `sheetcache.${id}`;

/**
 * The sheet `id` as kept in this browser, or null.
 * @param {string} id
 * @returns {Kept | null}
 */
export function keptSheet(id) {
  const kept = readJson(keyOf(id), null);
  return kept && typeof kept.token === "string" ? kept : null;
}

/**
 * Keep (or forget, with null) the sheet `id` in this browser.
 * @param {string} id
 * @param {Kept | null} kept
 */
export function keepSheet(id, kept) {
  writeJson(keyOf(id), kept);
}

/**
 * The sheets this browser keeps (it holds their edit tokens), newest first.
 * @returns {(Kept & {id: string})[]}
 */
export function keptSheets() {
  /** @type {(Kept & {id: string})[]} */
  const out = [];
  for (const name of keysWithPrefix("sheet.")) {
    const id = name.slice("sheet.".length);
    const kept = keptSheet(id);
    if (kept) out.push({ ...kept, id });
  }
  return out.sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** A fresh id for an entry (a request repeated with it is applied once). */
export function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ------------------------------------------------------------- start a sheet

/**
 * The start page: a new sheet, an imported one, or one kept here.
 * @param {HTMLElement} root
 * @returns {() => void}
 */
export function mountStart(root) {
  let alive = true;
  const box = el("section", { class: "panel sk-start" }, el("h1", { class: "page-title" }, "Keep score"));
  root.append(box);
  const intro = el(
    "p",
    { class: "help" },
    "Keep the score of a game played with real cards: the sheet knows the game's rules, checks every bid and trick, and adds up the scores. The other players can follow it on their phones.",
  );
  const error = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "sk-form", novalidate: true });
  box.append(intro, form, error);
  const kept = keptSheets();
  if (kept.length) {
    box.append(
      el("h2", {}, "Sheets kept in this browser"),
      el(
        "ul",
        { class: "sk-kept" },
        kept.map((s) => el("li", {}, el("a", { href: `#/score/${encodeURIComponent(s.id)}` }, `${s.name || s.game || "Sheet"} · ${(s.players || []).join(", ")}`))),
      ),
    );
  }
  const importInput = /** @type {HTMLInputElement} */ (el("input", { type: "file", accept: "application/json,.json", id: "sk-import-file" }));
  importInput.addEventListener("change", () => importFile(importInput.files ? importInput.files[0] : undefined, error));
  box.append(el("h2", {}, "Import a sheet"), el("div", { class: "field" }, el("label", { for: "sk-import-file" }, "A JSON sheet exported by tricktaker"), importInput));

  listGames()
    .then((/** @type {Game[]} */ games) => {
      if (alive) buildForm(/** @type {HTMLFormElement} */ (form), games, error);
    })
    .catch((/** @type {Error} */ exc) => {
      error.textContent = `The games could not be loaded: ${exc.message}`;
    });
  return () => {
    alive = false;
  };
}

/** @typedef {import("./api.js").GameInfo} Game */

/**
 * The form that starts a sheet.
 * @param {HTMLFormElement} form
 * @param {Game[]} games
 * @param {HTMLElement} error
 */
function buildForm(form, games, error) {
  const gameSelect = /** @type {HTMLSelectElement} */ (el(
    "select",
    { id: "sk-game", name: "game" },
    games.map((g) => el("option", { value: g.id }, g.name)),
    el("option", { value: "" }, "House rules (a TOML file)…"),
  ));
  const toml = /** @type {HTMLTextAreaElement} */ (el("textarea", { id: "sk-toml", rows: "6", placeholder: 'extends = "blackout"\nid = "our_blackout"\nname = "Our Blackout"', hidden: true }));
  const options = el("div", { class: "sk-options" });
  const names = el("div", { class: "sk-names" });
  const dealer = /** @type {HTMLSelectElement} */ (el("select", { id: "sk-dealer" }));
  const count = { n: 4 };

  function game() {
    return games.find((g) => g.id === gameSelect.value) || null;
  }
  function nameInputs() {
    return [...names.querySelectorAll("input")];
  }
  /** @param {number} i */
  const unnamed = (i) => `Seat ${i + 1}`; // as the table calls a seat nobody named
  function refreshDealer() {
    const chosen = dealer.value;
    clear(dealer);
    nameInputs().forEach((input, i) => {
      const name = input.value.trim() || unnamed(i);
      dealer.append(el("option", { value: String(i), selected: String(i) === chosen }, name));
    });
  }
  function drawNames() {
    const old = nameInputs().map((input) => input.value);
    clear(names);
    for (let i = 0; i < count.n; i += 1) {
      const input = el("input", { type: "text", id: `sk-name-${i}`, maxlength: "40", value: old[i] || "", placeholder: unnamed(i), autocomplete: "off" });
      input.addEventListener("input", refreshDealer);
      names.append(el("div", { class: "field" }, el("label", { for: `sk-name-${i}` }, `Seat ${i + 1}`), input));
    }
    const g = game();
    const min = g ? g.players.min : 2;
    const max = g ? g.players.max : 8;
    names.append(
      el(
        "div",
        { class: "row" },
        el("button", { type: "button", class: "small", disabled: count.n >= max, onclick: () => { count.n += 1; drawNames(); } }, "Add a player"),
        el("button", { type: "button", class: "small", disabled: count.n <= min, onclick: () => { count.n -= 1; drawNames(); } }, "Remove the last"),
      ),
    );
    refreshDealer();
  }
  function drawOptions() {
    clear(options);
    const g = game();
    toml.hidden = Boolean(g);
    if (!g) return;
    count.n = Math.min(Math.max(count.n, g.players.min), g.players.max);
    for (const option of g.options) {
      if (option.name === "draw_for_dealer") continue; // the first dealer is chosen below
      const id = `sk-opt-${option.name}`;
      if (option.type === "bool") {
        options.append(el("div", { class: "field check" }, el("input", { type: "checkbox", id, dataset: { option: option.name, kind: "bool" }, checked: option.default === true }), el("label", { for: id }, option.help || option.name)));
      } else if (option.type === "int") {
        options.append(el("div", { class: "field" }, el("label", { for: id }, option.help || option.name), el("input", { type: "number", id, dataset: { option: option.name, kind: "int" }, value: option.default ?? "", min: option.min ?? null, max: option.max ?? null })));
      }
    }
  }
  gameSelect.addEventListener("change", () => {
    drawOptions();
    drawNames();
  });
  form.append(
    el("div", { class: "field" }, el("label", { for: "sk-game" }, "Game"), gameSelect),
    toml,
    options,
    el("fieldset", {}, el("legend", {}, "Players, in seating order (clockwise)"), names),
    el("div", { class: "field" }, el("label", { for: "sk-dealer" }, "First dealer"), dealer),
    el("button", { type: "submit", class: "primary sk-big" }, "Start the sheet"),
  );
  drawOptions();
  drawNames();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const players = nameInputs().map((input, i) => input.value.trim() || unnamed(i));
    /** @type {Record<string, boolean | number>} */
    const chosen = {};
    for (const input of options.querySelectorAll("input[data-option]")) {
      const box = /** @type {HTMLInputElement} */ (input);
      const value = box.dataset.kind === "bool" ? box.checked : Number(box.value);
      chosen[box.dataset.option || ""] = value;
    }
    /** @type {Record<string, unknown>} */
    const body = {
      players,
      options: chosen,
      first_dealer: players[Number(dealer.value) || 0],
    };
    if (gameSelect.value) body.game = gameSelect.value;
    else body.ruleset_toml = toml.value;
    try {
      const made = await api("/sheets", { method: "POST", body });
      keep(made);
      location.hash = `#/score/${encodeURIComponent(made.id)}`;
    } catch (exc) {
      error.textContent = errorWords(exc);
    }
  });
}

/**
 * The words of a refusal (a problem's detail) or of an error.
 * @param {unknown} exc
 * @returns {string}
 */
export function errorWords(exc) {
  const known = /** @type {{detail?: string, message?: string}} */ (exc || {});
  return known.detail || known.message || String(exc);
}

/**
 * Remember a created or imported sheet in this browser (its edit token and view key).
 * @param {{id: string, edit_token: string, view_key: string, sheet: {game: string, name: string, players: string[]}}} made
 */
export function keep(made) {
  keepSheet(made.id, {
    token: made.edit_token,
    view: made.view_key,
    game: made.sheet.game,
    name: made.sheet.name,
    players: made.sheet.players,
    created: Date.now(),
  });
  writeJson(cacheKeyOf(made.id), made.sheet);
}

/**
 * @param {File | undefined} file
 * @param {HTMLElement} error
 */
async function importFile(file, error) {
  if (!file) return;
  error.textContent = "";
  try {
    const data = JSON.parse(await file.text());
    const made = await api("/sheets/import", { method: "POST", body: { sheet: data } });
    keep(made);
    location.hash = `#/score/${encodeURIComponent(made.id)}`;
  } catch (exc) {
    error.textContent = exc instanceof SyntaxError ? "This file is not JSON." : errorWords(exc);
  }
}
