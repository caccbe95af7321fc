// The scorekeeper's start page and its storage in this browser (scorekeeper.js mounts
// them): a form that starts a sheet (the game, its options, the players in seating
// order, the first dealer), the import of a JSON sheet, and the sheets kept here.
//
// localStorage: tricktaker.sheet.ID = {token, view, game, name, players, created};
// tricktaker.sheetqueue.ID = the entries waiting to be sent; tricktaker.sheetcache.ID =
// the last sheet seen (shown while the server cannot be reached).

import { api, listGames } from "./api.js";
import { clear, el } from "./dom.js";

// ------------------------------------------------------------------ storage

export const keyOf = (id) => `tricktaker.sheet.${id}`;
export const queueKeyOf = (id) => `tricktaker.sheetqueue.${id}`;
export const cacheKeyOf = (id) => `tricktaker.sheetcache.${id}`;

export function readJson(key, fallback = null) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

export function writeJson(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage refused: the queue lasts as long as the page */
  }
}

/** The sheets this browser keeps (it holds their edit tokens), newest first. */
export function keptSheets() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const found = /^tricktaker\.sheet\.(.+)$/.exec(localStorage.key(i) || "");
      if (found) out.push({ id: found[1], ...readJson(localStorage.key(i), {}) });
    }
  } catch {
    /* no storage */
  }
  return out.sort((a, b) => (b.created || 0) - (a.created || 0));
}

export function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ------------------------------------------------------------- start a sheet

/** The start page: a new sheet, an imported one, or one kept here. */
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
  const importInput = el("input", { type: "file", accept: "application/json,.json", id: "sk-import-file" });
  importInput.addEventListener("change", () => importFile(importInput.files && importInput.files[0], error));
  box.append(el("h2", {}, "Import a sheet"), el("div", { class: "field" }, el("label", { for: "sk-import-file" }, "A JSON sheet exported by tricktaker"), importInput));

  listGames()
    .then((games) => {
      if (alive) buildForm(form, games, error);
    })
    .catch((exc) => {
      error.textContent = `The games could not be loaded: ${exc.message}`;
    });
  return () => {
    alive = false;
  };
}

function buildForm(form, games, error) {
  const gameSelect = el(
    "select",
    { id: "sk-game", name: "game" },
    games.map((g) => el("option", { value: g.id }, g.name)),
    el("option", { value: "" }, "House rules (a TOML file)…"),
  );
  const toml = el("textarea", { id: "sk-toml", rows: "6", placeholder: 'extends = "blackout"\nid = "our_blackout"\nname = "Our Blackout"', hidden: true });
  const options = el("div", { class: "sk-options" });
  const names = el("div", { class: "sk-names" });
  const dealer = el("select", { id: "sk-dealer" });
  const count = { n: 4 };

  function game() {
    return games.find((g) => g.id === gameSelect.value) || null;
  }
  function nameInputs() {
    return [...names.querySelectorAll("input")];
  }
  function refreshDealer() {
    const chosen = dealer.value;
    clear(dealer);
    nameInputs().forEach((input, i) => {
      const name = input.value.trim() || `Player ${i + 1}`;
      dealer.append(el("option", { value: String(i), selected: String(i) === chosen }, name));
    });
  }
  function drawNames() {
    const old = nameInputs().map((input) => input.value);
    clear(names);
    for (let i = 0; i < count.n; i += 1) {
      const input = el("input", { type: "text", id: `sk-name-${i}`, maxlength: "40", value: old[i] || "", placeholder: `Player ${i + 1}`, autocomplete: "off" });
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
    const players = nameInputs().map((input, i) => input.value.trim() || `Player ${i + 1}`);
    const chosen = {};
    for (const input of options.querySelectorAll("input[data-option]")) {
      const value = input.dataset.kind === "bool" ? input.checked : Number(input.value);
      chosen[input.dataset.option] = value;
    }
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
      error.textContent = exc.detail || exc.message;
    }
  });
}

/** Remember a created or imported sheet in this browser (its edit token and view key). */
export function keep(made) {
  writeJson(keyOf(made.id), {
    token: made.edit_token,
    view: made.view_key,
    game: made.sheet.game,
    name: made.sheet.name,
    players: made.sheet.players,
    created: Date.now(),
  });
  writeJson(cacheKeyOf(made.id), made.sheet);
}

async function importFile(file, error) {
  if (!file) return;
  error.textContent = "";
  try {
    const data = JSON.parse(await file.text());
    const made = await api("/sheets/import", { method: "POST", body: { sheet: data } });
    keep(made);
    location.hash = `#/score/${encodeURIComponent(made.id)}`;
  } catch (exc) {
    error.textContent = exc instanceof SyntaxError ? "This file is not JSON." : exc.detail || exc.message;
  }
}
