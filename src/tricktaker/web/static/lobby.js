// @ts-check
// The lobby: set up a table (a shipped game with its options, or a house-rules file,
// with people and bots in the seats), see the open tables, take a seat or watch.
// The #/join and #/invite routes are in invite.js (re-exported here).

import {
  ApiError,
  checkRuleset,
  errorText,
  createTable,
  listBots,
  listGames,
  listTables,
  saveHost,
  saveInvite,
  saveName,
  saveSeat,
  savedName,
  seatToken,
} from "./api.js";
import { append, clear, el } from "./dom.js";
import { seatWho } from "./invite.js";

/**
 * @typedef {import("./api.js").GameInfo} GameInfo
 * @typedef {import("./api.js").GameOption} GameOption
 * @typedef {import("./api.js").BotLevel} BotLevel
 * @typedef {import("./api.js").RulesetCheck} RulesetCheck
 * @typedef {import("./api.js").RulesetError} RulesetError
 * @typedef {import("./api.js").TableInfo} TableInfo
 */

const HOUSE = "__house__";
/** @param {string} name */
const words = (name) => name.replace(/_/g, " ");
/** @param {{min: number, max: number}} range */
const playersText = ({ min, max }) => (min === max ? `${min} players` : `${min}–${max} players`);
/**
 * A seat as a person reads it: numbered from 1 (the wire's seat 0 is "Seat 1").
 * @param {number} seat
 */
const seatLabel = (seat) => `Seat ${seat + 1}`;

const EXAMPLE_TOML = `# House rules: change only what differs from a shipped game.
id = "our_blackout"
name = "Our Blackout"
extends = "blackout"

[bidding]
hook = true
`;

/**
 * Draw `box` again with `draw`, keeping the keyboard's focus: the control that had it
 * (found again by its id) has it after, so that a choice that redraws its own box (a seat,
 * the players) does not send the focus back to the top of the page.
 * @param {HTMLElement} box
 * @param {() => void} draw
 */
function keepFocus(box, draw) {
  const had = document.activeElement;
  const id = had && box.contains(had) ? had.id : "";
  draw();
  if (!id) return;
  const again = document.getElementById(id);
  if (again instanceof HTMLElement && box.contains(again)) again.focus();
}

/**
 * The lobby at #/.
 * @param {HTMLElement} root
 * @returns {Promise<() => void>} what unmounts it
 */
export async function mountLobby(root) {
  const stop = new AbortController();
  /** @type {ReturnType<typeof setInterval>[]} */
  const timers = [];
  /**
   * @type {{games: GameInfo[], bots: BotLevel[], game: GameInfo | null, choice: string | null,
   *   houseText: string, houseCheck: RulesetCheck | null, options: Record<string, boolean | number>,
   *   players: number, seats: string[]}}
   */
  const state = {
    games: [],
    bots: [],
    game: null, // the chosen game's info (a shipped game, or the checked house rules)
    choice: null, // a game id, or HOUSE
    houseText: "",
    houseCheck: null,
    options: {},
    players: 4,
    seats: [],
  };

  const createError = el("p", { class: "form-error", role: "alert", id: "create-error" });
  const gameList = el("ul", { class: "game-list", role: "list" });
  const houseBox = el("div", { class: "house-rules", id: "house-rules", hidden: true });
  const optionsBox = el("div", { class: "options", id: "options" });
  const seatsBox = el("div", { class: "seats", id: "seats" });
  const tablesBox = el("div", { class: "open-tables", id: "open-tables", "aria-live": "polite" });
  const nameInput = el("input", {
    id: "host-name",
    type: "text",
    maxlength: "40",
    autocomplete: "nickname",
    value: savedName() || "",
    placeholder: "Ann",
  });
  const publicBox = el("input", { id: "public", type: "checkbox", checked: true });
  const hintsBox = el("input", { id: "hints", type: "checkbox" });
  const createButton = el("button", { type: "submit", class: "primary", id: "create" }, "Create the table");

  const form = el(
    "form",
    { class: "new-table", id: "new-table", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ e) => submit(e) },
    el(
      "fieldset",
      { class: "games" },
      el("legend", {}, "Game"),
      gameList,
    ),
    houseBox,
    el("fieldset", { class: "options-set" }, el("legend", {}, "Options"), optionsBox),
    el(
      "fieldset",
      { class: "seats-set" },
      el("legend", {}, "Players and seats"),
      el(
        "p",
        { class: "field" },
        el("label", { for: "host-name" }, "Your name"),
        nameInput,
      ),
      seatsBox,
      el(
        "p",
        { class: "field check" },
        publicBox,
        el("label", { for: "public" }, "List the table under open tables (anyone may watch it, and take a seat left open to anyone)"),
      ),
      el(
        "p",
        { class: "field check" },
        hintsBox,
        el("label", { for: "hints" }, "Allow the coach's hints to everyone seated (alone with bots you always have them)"),
      ),
    ),
    el("div", { class: "actions" }, createButton),
    createError,
  );

  append(root, [
    el("h1", { class: "page-title" }, "Lobby"),
    el(
      "div",
      { class: "lobby" },
      el("section", { class: "panel", "aria-labelledby": "new-table-title" },
        el("h2", { id: "new-table-title" }, "New table"),
        form,
      ),
      el(
        "div",
        { class: "side" },
        el(
          "section",
          { class: "panel", "aria-labelledby": "open-title" },
          el(
            "div",
            { class: "panel-head" },
            el("h2", { id: "open-title" }, "Open tables"),
            el("button", { type: "button", class: "small", onclick: () => refreshTables() }, "Refresh"),
          ),
          tablesBox,
        ),
        el(
          "section",
          { class: "panel", "aria-labelledby": "daily-title" },
          el("h2", { id: "daily-title" }, "Daily challenge"),
          el(
            "p",
            {},
            "Today's deals, the same for everyone, against the same bots: each hand is compared with everyone who held your cards.",
          ),
          el("p", {}, el("a", { href: "#/daily", class: "button primary", id: "daily-link" }, "Play today's challenge")),
          el("p", {}, "A club or friends? ", el("a", { href: "#/duplicate", id: "duplicate-link" }, "Deal a duplicate set"), ": the same deals at several tables, any day."),
        ),
        el(
          "section",
          { class: "panel", "aria-labelledby": "replay-title" },
          el("h2", { id: "replay-title" }, "Replays"),
          el(
            "p",
            {},
            "Step through a finished game hand by hand and trick by trick, every hand shown. ",
            el("a", { href: "#/replay" }, "Open a record file or a finished table"),
          ),
          el("p", {}, "Playing with real cards? ", el("a", { href: "#/score" }, "Keep score"), ": the sheet checks every bid and trick."),
        ),
      ),
    ),
  ]);

  // ---------------------------------------------------------------- games

  function renderGames() {
    clear(gameList);
    const items = [...state.games.map((g) => gameItem(g)), houseItem()];
    append(gameList, items);
  }

  /** @param {GameInfo} game */
  function gameItem(game) {
    const id = `game-${game.id}`;
    return el(
      "li",
      { class: "game", dataset: { game: game.id } },
      el("input", {
        type: "radio",
        name: "game",
        id,
        value: game.id,
        checked: state.choice === game.id,
        onchange: () => choose(game.id),
      }),
      el(
        "label",
        { for: id },
        el("span", { class: "game-name" }, game.name),
        el("span", { class: "game-players" }, playersText(game.players)),
        el("span", { class: "game-desc" }, game.description),
      ),
      game.rules_url
        ? el(
            "a",
            {
              class: "rules-link",
              href: game.rules_url,
              target: "_blank",
              rel: "noopener",
              "aria-label": `Rules of ${game.name} (opens a new tab)`,
            },
            "Rules",
          )
        : null,
    );
  }

  function houseItem() {
    return el(
      "li",
      { class: "game house", dataset: { game: HOUSE } },
      el("input", {
        type: "radio",
        name: "game",
        id: "game-house",
        value: HOUSE,
        checked: state.choice === HOUSE,
        onchange: () => choose(HOUSE),
      }),
      el(
        "label",
        { for: "game-house" },
        el("span", { class: "game-name" }, "House rules"),
        el("span", { class: "game-desc" }, "Your own rules as a TOML file: upload it or paste it."),
      ),
      el(
        "a",
        { class: "rules-link", href: "/rules/blackout", target: "_blank", rel: "noopener", "aria-label": "An example of the rules pages (opens a new tab)" },
        "Example",
      ),
    );
  }

  /** @param {string} choice a game's id, or HOUSE */
  function choose(choice) {
    state.choice = choice;
    houseBox.hidden = choice !== HOUSE;
    createError.textContent = "";
    if (choice === HOUSE) {
      state.game = state.houseCheck && state.houseCheck.ok ? state.houseCheck.game : null;
      if (!houseBox.firstChild) renderHouse();
    } else {
      state.game = state.games.find((g) => g.id === choice) || null;
    }
    resetOptions();
    render();
  }

  function resetOptions() {
    state.options = {};
    if (state.game) {
      for (const option of state.game.options) state.options[option.name] = option.default;
      const { min, max } = state.game.players;
      if (state.players < min || state.players > max) state.players = state.game.default_players;
    }
    fitSeats();
  }

  // ---------------------------------------------------------------- house rules

  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let checkTimer;
  const houseText = el("textarea", {
    id: "house-text",
    rows: "9",
    spellcheck: "false",
    autocapitalize: "off",
    "aria-describedby": "house-help house-status",
    oninput: () => {
      state.houseText = houseText.value;
      clearTimeout(checkTimer);
      checkTimer = setTimeout(() => checkHouse(), 500);
    },
  });
  const houseStatus = el("p", { class: "house-status", id: "house-status", role: "status" });
  const houseView = el("ol", { class: "toml-view", id: "toml-view", "aria-label": "The file, line by line, with its errors" });

  function renderHouse() {
    const file = el("input", {
      id: "house-file",
      type: "file",
      accept: ".toml,text/plain,application/toml",
      onchange: async () => {
        const picked = file.files && file.files[0];
        if (!picked) return;
        houseText.value = await picked.text();
        state.houseText = houseText.value;
        checkHouse();
      },
    });
    append(houseBox, [
      el("p", { id: "house-help", class: "help" },
        "A house-rules file changes a shipped game: ",
        el("code", {}, 'extends = "blackout"'),
        ", then only the fields that differ. Errors show next to the line they concern."),
      el("p", { class: "field" }, el("label", { for: "house-file" }, "Upload a .toml file"), file),
      el("p", { class: "field" }, el("label", { for: "house-text" }, "Or paste it here"), houseText),
      el(
        "p",
        { class: "row" },
        el("button", { type: "button", onclick: () => checkHouse() }, "Check the rules"),
        el("button", {
          type: "button",
          class: "small",
          onclick: () => {
            houseText.value = EXAMPLE_TOML;
            state.houseText = EXAMPLE_TOML;
            checkHouse();
          },
        }, "Start from an example"),
      ),
      houseStatus,
      houseView,
    ]);
  }

  async function checkHouse() {
    clearTimeout(checkTimer);
    const text = state.houseText;
    if (!text.trim()) {
      state.houseCheck = null;
      houseStatus.textContent = "Paste or upload a file to check it.";
      clear(houseView);
      return;
    }
    houseStatus.textContent = "Checking…";
    let result;
    try {
      result = await checkRuleset(text, changedOptions(), state.houseCheck && state.houseCheck.ok ? state.players : null);
    } catch (error) {
      houseStatus.textContent = `The rules could not be checked: ${errorText(error)}`;
      return;
    }
    if (text !== state.houseText || stop.signal.aborted) return; // typed on meanwhile
    const first = !state.houseCheck || !state.houseCheck.ok || !result.ok || (state.game && result.game && state.game.id !== result.game.id);
    state.houseCheck = result;
    showHouseErrors(text, result);
    if (result.ok && result.game) {
      const base = result.based_on ? `, based on ${result.based_on}` : "";
      const changes = result.changes && result.changes.length ? `; it changes ${result.changes.join(", ")}` : "";
      houseStatus.textContent = `✓ ${result.game.name} (${playersText(result.game.players)})${base}${changes}.`;
      houseStatus.className = "house-status ok";
      houseText.removeAttribute("aria-invalid");
      if (state.choice === HOUSE) {
        const kept = { ...state.options };
        state.game = result.game;
        if (first) resetOptions();
        else state.options = kept;
        render();
      }
    } else {
      // The status line is what a screen reader hears (once, politely): the count and the
      // first error in full; the errors by their lines are there to read, not shouted.
      const firstError = result.errors[0];
      const where = firstError
        ? [firstError.line ? `line ${firstError.line}` : "", firstError.field ? `(${firstError.field})` : ""].filter(Boolean).join(" ")
        : "";
      houseStatus.textContent =
        `${result.errors.length} error${result.errors.length === 1 ? "" : "s"} in the file` +
        (firstError ? `; the first, ${where ? `${where}: ` : ""}${firstError.message}.` : ".");
      houseStatus.className = "house-status bad";
      houseText.setAttribute("aria-invalid", String(result.errors.some((e) => Boolean(e.line))));
      createButton.disabled = true;
      // An option's error belongs next to the option, the players' next to the count.
      renderOptionErrors(result.errors);
    }
  }

  /**
   * @param {string} text
   * @param {RulesetCheck} result
   */
  function showHouseErrors(text, result) {
    clear(houseView);
    const lines = text.split("\n");
    /** @type {Map<number, RulesetError[]>} */
    const byLine = new Map();
    /** @type {RulesetError[]} */
    const loose = [];
    for (const error of result.errors || []) {
      const own = !error.source || error.source === "house-rules.toml";
      if (own && error.line && error.line <= lines.length) {
        const same = byLine.get(error.line) || [];
        same.push(error);
        byLine.set(error.line, same);
      } else if (!error.option && error.field !== "players") {
        loose.push(error);
      }
    }
    if (!byLine.size && !loose.length) return;
    lines.forEach((line, index) => {
      const number = index + 1;
      const errors = byLine.get(number) || [];
      const item = el(
        "li",
        { class: errors.length ? "toml-line has-error" : "toml-line", value: String(number) },
        el("code", {}, line || " "),
      );
      for (const error of errors) item.append(fieldError(error, `line ${number}`));
      houseView.append(item);
    });
    for (const error of loose) houseView.append(el("li", { class: "toml-line has-error loose" }, fieldError(error, error.source || "file")));
  }

  /**
   * @param {RulesetError} error
   * @param {string} where
   */
  function fieldError(error, where) {
    const field = error.field || (error.option ? `options.${error.option}` : "");
    return el(
      "span",
      { class: "field-error", dataset: { field, line: error.line ? String(error.line) : "" } },
      `${where}${error.column ? `:${error.column}` : ""}${error.field ? ` · ${error.field}` : ""}: ${error.message}`,
    );
  }

  /** @param {RulesetError[]} errors */
  function renderOptionErrors(errors) {
    for (const node of optionsBox.querySelectorAll(".option .field-error")) node.remove();
    for (const node of seatsBox.querySelectorAll(".field-error")) node.remove();
    for (const error of errors) {
      if (error.option) {
        const box = optionsBox.querySelector(`[data-option="${CSS.escape(error.option)}"]`);
        if (box) box.append(fieldError(error, "option"));
      } else if (error.field === "players") {
        const box = seatsBox.querySelector(".players-field");
        if (box) box.append(fieldError(error, "players"));
      }
    }
  }

  // ---------------------------------------------------------------- options

  function changedOptions() {
    /** @type {Record<string, boolean | number>} */
    const out = {};
    if (!state.game) return out;
    for (const option of state.game.options) {
      const value = state.options[option.name];
      if (value !== undefined && value !== option.default) out[option.name] = value;
    }
    return out;
  }

  function renderOptions() {
    keepFocus(optionsBox, drawOptions);
  }

  function drawOptions() {
    clear(optionsBox);
    const game = state.game;
    if (!game) {
      optionsBox.append(el("p", { class: "help" }, state.choice === HOUSE ? "The options of your file show once it checks out." : "Choose a game first."));
      return;
    }
    if (!game.options.length) {
      optionsBox.append(el("p", { class: "help" }, `${game.name} has no options.`));
      return;
    }
    for (const option of game.options) optionsBox.append(optionInput(option));
    for (const [name, why] of Object.entries(game.unavailable || {})) {
      optionsBox.append(el("p", { class: "help unavailable" }, `${words(name)}: not available here (${why}).`));
    }
  }

  /** @param {GameOption} option */
  function optionInput(option) {
    const id = `opt-${option.name}`;
    const value = state.options[option.name];
    const defaultText = option.type === "bool" ? (option.default ? "on" : "off") : String(option.default);
    const forPlayers = option.players && option.players.length ? ` Only with ${option.players.join(" or ")} players.` : "";
    const help = el("span", { class: "help", id: `${id}-help` }, `${option.help}${forPlayers} Default: ${defaultText}.`);
    /** @param {boolean | number} v */
    const set = (v) => {
      state.options[option.name] = v;
      for (const node of box.querySelectorAll(".field-error")) node.remove();
      if (state.choice === HOUSE) checkHouse();
    };
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let input;
    if (option.type === "bool") {
      const check = el("input", {
        id,
        type: "checkbox",
        role: "switch",
        checked: Boolean(value),
        "aria-describedby": help.id,
        onchange: () => set(check.checked),
      });
      input = check;
    } else if (option.choices) {
      const select = el(
        "select",
        { id, "aria-describedby": help.id, onchange: () => set(Number(select.value)) },
        option.choices.map((c) => el("option", { value: String(c), selected: c === value }, String(c))),
      );
      input = select;
    } else {
      const number = el("input", {
        id,
        type: "number",
        inputmode: "numeric",
        step: "1",
        min: option.min ?? null,
        max: option.max ?? null,
        value: String(value),
        "aria-describedby": help.id,
        onchange: () => {
          const typed = Number(number.value);
          if (number.value.trim() === "" || !Number.isInteger(typed)) {
            number.value = String(state.options[option.name]);
            return;
          }
          set(typed);
        },
      });
      input = number;
    }
    const box = el(
      "div",
      { class: `option option-${option.type}`, dataset: { option: option.name } },
      option.type === "bool" ? input : null,
      el("label", { for: id }, el("span", { class: "option-name" }, words(option.name))),
      option.type === "bool" ? null : input,
      help,
    );
    return box;
  }

  // ---------------------------------------------------------------- seats

  function fitSeats() {
    const n = state.players;
    const seats = state.seats.slice(0, n);
    while (seats.length < n) seats.push(seats.length === 0 ? "you" : "easy");
    if (!seats.includes("you") && state.seats.length === 0) seats[0] = "you";
    state.seats = seats;
  }

  function renderSeats() {
    keepFocus(seatsBox, drawSeats);
  }

  function drawSeats() {
    clear(seatsBox);
    const game = state.game;
    if (!game) return;
    const { min, max } = game.players;
    const count = el(
      "select",
      {
        id: "players",
        onchange: () => {
          state.players = Number(count.value);
          fitSeats();
          renderSeats();
          if (state.choice === HOUSE) checkHouse();
        },
      },
      Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) =>
        el("option", { value: String(n), selected: n === state.players }, String(n)),
      ),
    );
    seatsBox.append(
      el("p", { class: "field players-field" }, el("label", { for: "players" }, "Players"), count),
    );
    const list = el("ol", { class: "seat-list" });
    state.seats.forEach((kind, seat) => {
      const id = `seat-${seat}`;
      const select = el(
        "select",
        {
          id,
          "data-seat": String(seat),
          onchange: () => {
            if (select.value === "you") {
              state.seats = state.seats.map((k) => (k === "you" ? "human" : k));
            }
            state.seats[seat] = select.value;
            renderSeats();
          },
        },
        el("option", { value: "you", selected: kind === "you" }, "You"),
        el("option", { value: "human", selected: kind === "human" }, "A person you invite"),
        el("option", { value: "open", selected: kind === "open" }, "Anyone (an open seat)"),
        state.bots.map((bot) =>
          el("option", { value: bot.id, selected: kind === bot.id }, `Bot: ${bot.id}`),
        ),
      );
      list.append(el("li", { class: "seat-row" }, el("label", { for: id }, seatLabel(seat)), select));
    });
    seatsBox.append(list);
    seatsBox.append(
      el("p", { class: "help bot-levels" }, "Bots: ", state.bots.map((bot) => bot.label.replace(/^(\w+):/, (_, w) => w.toLowerCase() + ":")).join("; "), "."),
    );
    if (!state.seats.includes("you")) {
      seatsBox.append(el("p", { class: "help" }, "You take no seat: you host the table and may watch it."));
    }
  }

  function render() {
    renderOptions();
    renderSeats();
    createButton.disabled = !state.game || (state.choice === HOUSE && !(state.houseCheck && state.houseCheck.ok));
  }

  // ---------------------------------------------------------------- create

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    createError.textContent = "";
    if (!state.game) {
      createError.textContent = "Choose a game first.";
      return;
    }
    const name = nameInput.value.trim();
    if (name) saveName(name);
    const host = state.seats.indexOf("you");
    /** @type {Record<string, unknown>} */
    const body = {
      options: changedOptions(),
      players: state.players,
      seats: state.seats.map((k) => (k === "you" || k === "human" ? "human" : k)),
      host_seat: host >= 0 ? host : null,
      name: name || "Host",
      public: publicBox.checked,
      hints: hintsBox.checked,
    };
    if (state.choice === HOUSE) body.ruleset_toml = state.houseText;
    else body.game = state.game.id;
    createButton.disabled = true;
    let created;
    try {
      created = await createTable(body);
    } catch (error) {
      createButton.disabled = false;
      showCreateError(error);
      return;
    }
    const id = created.table.id;
    saveHost(id, created.host_token);
    saveInvite(id, created.invite);
    if (created.seat_token !== null && created.seat !== null) saveSeat(id, created.seat, created.seat_token);
    const people = state.seats.filter((k) => k === "human" || k === "open").length;
    location.hash = people > 0 ? `#/invite/${encodeURIComponent(id)}` : `#/table/${encodeURIComponent(id)}`;
  }

  /** @param {unknown} error */
  function showCreateError(error) {
    const field = error instanceof ApiError ? error.field : null;
    createError.textContent = `The table could not be created: ${errorText(error)}`;
    if (!field) return;
    const option = field.startsWith("options") ? field.replace(/^options\.?/, "") : null;
    let target = null;
    if (option) target = optionsBox.querySelector(`[data-option="${CSS.escape(option)}"]`);
    else if (field === "players" || field.startsWith("seats") || field === "host_seat") target = seatsBox;
    if (target) target.append(fieldError({ field, message: errorText(error) }, field));
  }

  // ---------------------------------------------------------------- open tables

  let tablesShown = "";

  async function refreshTables() {
    let tables;
    try {
      tables = await listTables();
    } catch (error) {
      clear(tablesBox).append(el("p", { class: "form-error" }, `The open tables could not be loaded: ${errorText(error)}`));
      return;
    }
    if (stop.signal.aborted) return;
    // The list is a live region polled every few seconds: it is drawn again only when a
    // table changed (a screen reader reads again whatever is put back), keeping the focus
    // of a reader on one of its links.
    const now = JSON.stringify([tables, state.games.length]);
    if (now === tablesShown) return;
    tablesShown = now;
    keepFocus(tablesBox, () => {
      clear(tablesBox);
      if (!tables.length) {
        tablesBox.append(el("p", { class: "help" }, "No open tables right now. Create one!"));
        return;
      }
      const list = el("ul", { class: "table-list", role: "list" });
      for (const { table, invite } of tables) list.append(tableItem(table, invite));
      tablesBox.append(list);
    });
  }

  /**
   * @param {TableInfo} table
   * @param {string | null} invite the code that takes its open seats (null: none listed)
   */
  function tableItem(table, invite) {
    const game = state.games.find((g) => g.id === table.game);
    // Only the seats left open to anyone can be taken from here (the list's code takes
    // those); a seat kept for an invited person is not offered.
    const free = invite ? table.seats.filter((s) => s.state === "free" && s.open).length : 0;
    const mine = seatToken(table.id);
    const who = table.seats.map((s) => seatWho(s, s.open ? "open seat" : "kept for an invited player")).join(", ");
    const title = game ? game.name : table.game;
    const id = encodeURIComponent(table.id);
    return el(
      "li",
      { class: "open-table", dataset: { table: table.id } },
      el("div", { class: "open-table-title" },
        el("strong", {}, title),
        ` · ${table.players} players · ${table.status === "waiting" ? "waiting to start" : "playing"}`,
        free ? ` · ${free} open seat${free === 1 ? "" : "s"}` : " · to watch",
      ),
      el("div", { class: "help" }, who),
      el(
        "div",
        { class: "row" },
        mine
          ? el("a", { class: "button primary", id: `back-${table.id}`, href: `#/table/${id}` }, "Back to my seat")
          : free && invite
            ? el("a", { class: "button primary", id: `join-${table.id}`, href: `#/join/${id}?invite=${encodeURIComponent(invite)}`, "aria-label": `Take a seat at ${title}` }, "Take a seat")
            : null,
        el("a", { class: "button", id: `watch-${table.id}`, href: `#/table/${id}?watch=1`, "aria-label": `Watch ${title} as a spectator` }, "Watch"),
      ),
    );
  }

  // ---------------------------------------------------------------- start

  try {
    [state.games, state.bots] = await Promise.all([listGames(), listBots()]);
  } catch (error) {
    form.replaceWith(el("p", { class: "form-error", role: "alert" }, `The games could not be loaded: ${errorText(error)}`));
    return () => stop.abort();
  }
  const first = state.games.find((g) => g.id === "blackout") || state.games[0];
  state.choice = first.id;
  state.game = first;
  state.players = first.default_players;
  resetOptions();
  renderGames();
  render();
  refreshTables();
  timers.push(setInterval(() => refreshTables(), 5000));
  return () => {
    stop.abort();
    clearTimeout(checkTimer);
    for (const t of timers) clearInterval(t);
  };
}

export { mountInvite, mountJoin } from "./invite.js";
