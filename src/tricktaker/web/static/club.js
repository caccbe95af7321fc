// @ts-check
// Clubs (docs/clubs.md): #/clubs (your clubs, and starting one), #/club/ID (a club's
// evenings with their tables live, results, standings over a season, the members'
// statistics, its members and invitations) and #/club-invite/CODE (accepting an
// invitation). Everything is the server's (/api/clubs...); this lays it out and sends
// what a person asks for. No card is ever shown here: a table's cards are its own page's.

import { csrfToken, showAccountLink } from "./account-session.js";
import { credentialsForm } from "./account.js";
import { ApiError, api, errorText, getJSON, saveSeat, seatToken } from "./api.js";
import { append, clear, copyText, el, toast } from "./dom.js";
import { keepSheet } from "./scorekeeper-start.js";

/** How often an evening's tables are read again while the page is open, in ms. */
const REFRESH_MS = 5000;

/** The page's styles (club.css), added once. */
function clubStyles() {
  if (!document.querySelector("link[data-tricktaker-club]")) {
    const href = new URL("./club.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-club": "" }));
  }
}

/**
 * A day as a person reads it ("2026-11-28" stays a plain date, shown in this language).
 * @param {string | null} stamp
 */
function dayText(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp.length === 10 ? `${stamp}T12:00:00` : stamp);
  return Number.isNaN(date.getTime()) ? stamp : date.toLocaleDateString(undefined, { dateStyle: "medium" });
}

/**
 * A share as a percentage ("–" for none).
 * @param {number | null} share
 */
function percent(share) {
  return share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`;
}

/**
 * A count and its noun ("1 evening", "2 evenings").
 * @param {number} count
 * @param {string} noun
 */
function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The panel that says the page needs a signed-in user. */
function signInPanel() {
  return el(
    "div",
    { class: "panel narrow" },
    el("h1", { class: "page-title" }, "Clubs"),
    el("p", {}, "A club's page is for its members: log in first, or sign up."),
    el("a", { class: "button primary", href: "#/account" }, "Log in or sign up"),
  );
}

/**
 * A refusal, read out.
 * @param {unknown} error
 */
function errorPanel(error) {
  const title = error instanceof ApiError && error.status === 403 ? "Members only" : "This page could not be shown";
  return el("div", { class: "panel error-panel", role: "alert" }, el("h1", { class: "page-title" }, title), el("p", {}, errorText(error)));
}

/**
 * A table of figures that scrolls sideways in its box on a phone.
 * @param {string} caption
 * @param {string[]} head
 * @param {(string | number | Node)[][]} rows
 * @param {{rowHead?: number, mine?: (index: number) => boolean}} [how] the column that
 *   names a row (the first by default), and which rows are the viewer's own (marked)
 */
function figures(caption, head, rows, how = {}) {
  const rowHead = how.rowHead || 0;
  return el(
    "div",
    { class: "club-scroll", tabindex: "0", role: "region", "aria-label": caption },
    el(
      "table",
      { class: "club-table" },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, head.map((h, i) => el("th", { scope: "col", class: i === rowHead ? "club-name-col" : null }, h)))),
      el(
        "tbody",
        {},
        rows.map((row, r) =>
          el(
            "tr",
            { class: how.mine && how.mine(r) ? "club-mine" : null },
            row.map((cell, i) => (i === rowHead ? el("th", { scope: "row" }, cell) : el("td", {}, cell))),
          ),
        ),
      ),
    ),
  );
}

/**
 * A matchpoint percentage as the duplicate set's page writes it ("62.5%").
 * @param {number} value
 */
function percentText(value) {
  return `${value.toFixed(1)}%`;
}

/**
 * A total against the seats' averages, signed as the set's page writes it ("+4.0", "−2.5").
 * @param {number} value
 */
function signed(value) {
  const text = Math.abs(value).toFixed(1);
  if (text === "0.0") return text;
  return value < 0 ? `\u2212${text}` : `+${text}`;
}

/**
 * Each row's place in a ranking, a tie sharing the place of the first of it (1, 2, 2, 4).
 * @param {any[]} rows in ranked order
 * @param {(row: any) => string} key what two rows tie on
 * @returns {number[]}
 */
function places(rows, key) {
  return rows.map((row, i) => {
    let first = i;
    while (first > 0 && key(rows[first - 1]) === key(row)) first -= 1;
    return first + 1;
  });
}

// ------------------------------------------------------------------ #/clubs

/**
 * Your clubs, and the form that starts one.
 * @param {HTMLElement} root
 */
export async function mountClubs(root) {
  clubStyles();
  clear(root);
  if (!csrfToken()) {
    root.append(signInPanel());
    return () => {};
  }
  let listed;
  let games;
  try {
    [listed, games] = await Promise.all([getJSON("/api/clubs"), getJSON("/api/games")]);
  } catch (error) {
    root.append(errorPanel(error));
    return () => {};
  }
  const items = listed.clubs.map((/** @type {any} */ c) =>
    el(
      "li",
      { class: "club-item" },
      el("a", { href: `#/club/${encodeURIComponent(c.club.id)}`, class: "club-item-name" }, c.club.name),
      el("span", { class: "help" }, ` ${c.club.rules.text} · ${c.club.players} at a table · ${c.role === "organiser" ? "you organise it" : "member"}`),
    ),
  );
  const status = el("p", { class: "help", role: "status" });
  const name = el("input", { id: "club-name", required: true, maxlength: "60", autocomplete: "off" });
  const game = el(
    "select",
    { id: "club-game" },
    games.map((/** @type {any} */ g) => el("option", { value: g.id }, g.name)),
    el("option", { value: "" }, "House rules from a ruleset file"),
  );
  const players = el("input", { id: "club-players", type: "number", min: "1", max: "16", inputmode: "numeric" });
  const options = el("div", { class: "club-options" });
  const optionsSet = el("fieldset", { class: "options-set" }, el("legend", {}, "House rules: options"), options);
  // A house ruleset file (docs/rulesets.md): a shipped game with the club's own changes,
  // such as a shorter schedule for a weeknight.
  const toml = el("textarea", { id: "club-toml", rows: "6", spellcheck: "false", autocapitalize: "off", "aria-describedby": "club-toml-help" });
  const tomlFile = el("input", {
    id: "club-toml-file",
    type: "file",
    accept: ".toml,text/plain,application/toml",
    onchange: async () => {
      const picked = tomlFile.files && tomlFile.files[0];
      if (picked) toml.value = await picked.text();
    },
  });
  const tomlBox = el(
    "div",
    { class: "club-toml", hidden: true },
    el("p", { class: "help", id: "club-toml-help" }, "A ruleset file changes a shipped game: ", el("code", {}, 'extends = "blackout"'), ", then only what differs (see the documentation's rulesets page)."),
    el("div", { class: "field" }, el("label", { for: "club-toml-file" }, "Upload a .toml file"), tomlFile),
    el("div", { class: "field" }, el("label", { for: "club-toml" }, "Or paste it here"), toml),
  );
  const chosen = () => games.find((/** @type {any} */ g) => g.id === game.value);
  const drawOptions = () => {
    clear(options);
    const found = chosen();
    tomlBox.hidden = Boolean(found);
    optionsSet.hidden = !found;
    if (!found) {
      players.value = "";
      return;
    }
    players.value = String(found.default_players);
    for (const option of found.options) {
      const id = `club-opt-${option.name}`;
      const input =
        option.type === "bool"
          ? el("input", { id, type: "checkbox", checked: Boolean(option.default), dataset: { option: option.name, kind: "bool" } })
          : el("input", { id, type: "number", value: String(option.default), dataset: { option: option.name, kind: "number" } });
      options.append(el("div", { class: "field" }, el("label", { for: id }, option.name.replace(/_/g, " ")), input, el("span", { class: "help" }, option.help)));
    }
  };
  game.addEventListener("change", drawOptions);
  drawOptions();
  const form = el(
    "form",
    { class: "panel", "aria-labelledby": "club-new-title" },
    el("h2", { id: "club-new-title" }, "Start a club"),
    el("p", { class: "help" }, "You organise it: you invite the members, plan its evenings and may appoint other organisers. Its house rules are the game and options chosen here; every table and score sheet of the club plays them."),
    el("div", { class: "field" }, el("label", { for: "club-name" }, "Club name"), name),
    el("div", { class: "field" }, el("label", { for: "club-game" }, "Game"), game),
    tomlBox,
    el("div", { class: "field" }, el("label", { for: "club-players" }, "Players at a table"), players),
    optionsSet,
    el("button", { class: "primary", type: "submit" }, "Start the club"),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    /** @type {Record<string, boolean | number>} */
    const chosenOptions = {};
    const picked = chosen();
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (options.querySelectorAll("input[data-option]"))) {
      const key = input.dataset.option || "";
      const found = picked && picked.options.find((/** @type {any} */ o) => o.name === key);
      const value = input.dataset.kind === "bool" ? input.checked : Number(input.value);
      if (found && value !== found.default) chosenOptions[key] = value;
    }
    /** @type {Record<string, unknown>} */
    const body = { name: name.value, players: players.value ? Number(players.value) : null, options: chosenOptions };
    if (picked) body.game = picked.id;
    else body.ruleset_toml = toml.value;
    status.textContent = "Starting the club…";
    status.setAttribute("role", "status");
    try {
      const made = await api("/api/clubs", { method: "POST", body });
      location.hash = `#/club/${encodeURIComponent(made.club.id)}`;
    } catch (error) {
      status.textContent = errorText(error);
      status.setAttribute("role", "alert");
    }
  });
  root.append(
    el("h1", { class: "page-title" }, "Your clubs"),
    items.length
      ? el("ul", { class: "club-list panel", "aria-label": "Your clubs" }, items)
      : el("p", { class: "panel" }, "You belong to no club yet. Start one below, or open an invitation link a club's organiser gave you."),
    form,
  );
  return () => {};
}

// ------------------------------------------------------------------ #/club-invite/CODE

/**
 * An invitation: what club it is to, and the button that joins it.
 * @param {HTMLElement} root
 * @param {{code: string}} args
 */
export async function mountClubInvite(root, { code }) {
  clubStyles();
  clear(root);
  if (!csrfToken()) {
    // A guest signs up (or logs in) here and is shown the invitation at once.
    if (!document.querySelector("link[data-tricktaker-account]")) {
      document.head.append(el("link", { rel: "stylesheet", href: new URL("./account.css", import.meta.url).href, "data-tricktaker-account": "" }));
    }
    const signedIn = async () => {
      await showAccountLink();
      await mountClubInvite(root, { code });
    };
    root.append(
      el("h1", { class: "page-title" }, "An invitation to a club"),
      el("p", { class: "panel" }, "A club's members have accounts: sign up (or log in), and this invitation is shown to you to accept."),
      el(
        "div",
        { class: "account-forms" },
        el("section", { class: "panel" }, el("h2", { id: "signup-title" }, "Sign up"), credentialsForm("signup", signedIn)),
        el("section", { class: "panel" }, el("h2", { id: "login-title" }, "Log in"), credentialsForm("login", signedIn)),
      ),
    );
    return () => {};
  }
  let invite;
  try {
    invite = await getJSON(`/api/club-invites/${encodeURIComponent(code)}`);
  } catch (error) {
    root.append(errorPanel(error));
    return () => {};
  }
  const status = el("p", { class: "help", role: "status" });
  const link = `#/club/${encodeURIComponent(invite.club.id)}`;
  const join = el("button", { class: "primary", type: "button" }, `Join ${invite.club.name}`);
  join.addEventListener("click", async () => {
    join.disabled = true;
    try {
      await api(`/api/club-invites/${encodeURIComponent(code)}`, { method: "POST" });
      location.hash = link;
    } catch (error) {
      join.disabled = false;
      status.textContent = errorText(error);
      status.setAttribute("role", "alert");
    }
  });
  root.append(
    el(
      "div",
      { class: "panel narrow" },
      el("h1", { class: "page-title" }, invite.club.name),
      el("p", {}, `You are invited to join this club. Its house rules: ${invite.club.rules.text}.`),
      el("p", { class: "help" }, `The invitation is good until ${dayText(invite.expires_at)}.`),
      invite.member ? el("p", {}, "You are a member already. ", el("a", { href: link }, "Open the club's page")) : join,
      status,
    ),
  );
  return () => {};
}

// ------------------------------------------------------------------ #/club/ID

/**
 * A club's page.
 * @param {HTMLElement} root
 * @param {{clubId: string, evening: string | null}} args
 */
export async function mountClub(root, { clubId, evening }) {
  clubStyles();
  clear(root);
  if (!csrfToken()) {
    root.append(signInPanel());
    return () => {};
  }
  const base = `/api/clubs/${encodeURIComponent(clubId)}`;
  /** @type {any} */
  let page;
  try {
    page = await getJSON(base);
  } catch (error) {
    root.append(errorPanel(error));
    return () => {};
  }
  const organiser = page.role === "organiser";
  let closed = false;
  /** @type {number | null} */
  let timer = null;
  const eveningBox = el("section", { class: "club-section", "aria-labelledby": "club-evening-title" });
  const standingsBox = el("section", { class: "club-section", "aria-labelledby": "club-standings-title" });
  const statsBox = el("section", { class: "club-section", "aria-labelledby": "club-stats-title" });
  const membersBox = el("section", { class: "club-section", "aria-labelledby": "club-members-title" });
  let shown = evening || (page.evenings[0] ? page.evenings[0].id : null);

  const reload = async () => {
    page = await getJSON(base);
    drawEveningList();
  };

  // ---------------------------------------------------------------- evenings
  const eveningList = el("div", {});
  const drawEveningList = () => {
    clear(eveningList);
    if (!page.evenings.length) {
      eveningList.append(el("p", { class: "help" }, organiser ? "No evening yet: plan one below." : "No evening yet."));
      return;
    }
    const select = el(
      "select",
      { id: "club-evening-pick" },
      page.evenings.map((/** @type {any} */ e) =>
        el("option", { value: e.id, selected: e.id === shown }, `${dayText(e.day)}${e.name ? ` · ${e.name}` : ""} · ${kindText(e.kind)}`),
      ),
    );
    select.addEventListener("change", () => {
      shown = select.value;
      history.replaceState(null, "", `#/club/${encodeURIComponent(clubId)}?evening=${encodeURIComponent(shown)}`);
      refresh();
    });
    eveningList.append(el("div", { class: "field" }, el("label", { for: "club-evening-pick" }, "Evening"), select));
  };

  /** @param {string} kind */
  function kindText(kind) {
    return kind === "duplicate" ? "duplicate" : kind === "cards" ? "real cards" : "tables";
  }

  const planForm = () => {
    const status = el("p", { class: "help", role: "status" });
    const day = el("input", { id: "club-plan-day", type: "date", value: new Date().toISOString().slice(0, 10) });
    const name = el("input", { id: "club-plan-name", maxlength: "60", autocomplete: "off" });
    const kind = el(
      "select",
      { id: "club-plan-kind" },
      el("option", { value: "tables" }, "Tables with the house rules"),
      el("option", { value: "duplicate" }, "Duplicate: the same deals at every table"),
      el("option", { value: "cards" }, "Real cards, kept on score sheets"),
    );
    const form = el(
      "form",
      { class: "club-form", "aria-label": "Plan an evening" },
      el("div", { class: "field" }, el("label", { for: "club-plan-day" }, "Day"), day),
      el("div", { class: "field" }, el("label", { for: "club-plan-name" }, "Name (optional)"), name),
      el("div", { class: "field" }, el("label", { for: "club-plan-kind" }, "Kind"), kind),
      el("button", { type: "submit" }, "Plan the evening"),
      status,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await api(`${base}/evenings`, { method: "POST", body: { day: day.value || null, name: name.value || null, kind: kind.value } });
        shown = made.id;
        await reload();
        await refresh();
        toast("Evening planned.");
      } catch (error) {
        status.textContent = errorText(error);
      }
    });
    return form;
  };

  const eveningBody = el("div", { "aria-live": "polite", "aria-busy": "false" });

  /**
   * A table of the evening, as a card.
   * @param {any} table
   * @param {any} data the evening
   */
  const tableCard = (table, data) => {
    const seatedAt = (/** @type {any} */ t) => t.seats.some((/** @type {any} */ s) => s.member === page.me);
    // At a duplicate evening a member takes one seat: every table deals the same cards.
    const mine = data.evening.kind === "duplicate" ? data.tables.some(seatedAt) : seatedAt(table);
    const free = table.seats.filter((/** @type {any} */ s) => s.state === "free");
    const held = seatToken(table.table);
    const state =
      table.status === "waiting" ? "Waiting to start" : table.status === "finished" ? `Finished after ${plural(table.hands_played, "hand")}` : `Playing hand ${table.hand}${table.hands ? ` of ${table.hands}` : ""}`;
    const actions = el("div", { class: "row" });
    // No peeking at a duplicate evening: its tables are watched once every one is over.
    const sealed = data.evening.kind === "duplicate" && data.tables.some((/** @type {any} */ t) => t.status !== "finished");
    if (held) actions.append(el("a", { class: "button primary", href: `#/table/${encodeURIComponent(table.table)}` }, table.status === "finished" ? "Open your table" : "Play at your seat"));
    else if (sealed) actions.append(el("p", { class: "help club-sealed" }, "Watching opens once every table has finished: they deal the same cards."));
    else actions.append(el("a", { class: "button", href: `#/table/${encodeURIComponent(table.table)}?watch=1` }, "Watch"));
    if (!mine && free.length && table.status !== "finished") {
      const take = el("button", { type: "button" }, "Take a seat");
      take.addEventListener("click", async () => {
        try {
          const sat = await api(`${base}/tables/${encodeURIComponent(table.table)}/seat`, { method: "POST", body: {} });
          saveSeat(table.table, sat.seat, sat.seat_token);
          location.hash = `#/table/${encodeURIComponent(table.table)}`;
        } catch (error) {
          toast(errorText(error));
        }
      });
      actions.append(take);
    }
    if (organiser && table.status === "waiting") {
      const start = el("button", { type: "button" }, free.length ? "Start, bots in the free seats" : "Start");
      start.addEventListener("click", async () => {
        try {
          await api(`${base}/tables/${encodeURIComponent(table.table)}/start`, { method: "POST", body: { bot: free.length ? "easy" : null } });
          await refresh();
        } catch (error) {
          toast(errorText(error));
        }
      });
      actions.append(start);
    }
    return el(
      "li",
      { class: "club-table-card", dataset: { status: table.status } },
      el("h4", {}, `Table ${table.number}`, el("span", { class: "club-badge" }, state)),
      el(
        "ul",
        { class: "club-seats", "aria-label": `Table ${table.number}'s seats` },
        table.seats.map((/** @type {any} */ s) =>
          el(
            "li",
            {},
            el("span", { class: "club-seat-name" }, s.state === "free" ? "Free seat" : s.name || `Seat ${s.seat + 1}`),
            el("span", { class: "help" }, s.member && s.member === page.me ? " (you)" : s.member ? " (member)" : s.bot ? " (bot)" : ""),
            table.scores ? el("span", { class: "club-score", "aria-label": `score ${table.scores[s.seat]}` }, String(table.scores[s.seat])) : null,
          ),
        ),
      ),
      actions,
    );
  };

  const sheetForm = (/** @type {any} */ data) => {
    const status = el("p", { class: "help", role: "status" });
    const names = el("input", {
      id: "club-sheet-players",
      value: page.members.map((/** @type {any} */ m) => m.name).slice(0, page.club.players).join(", "),
      autocomplete: "off",
      "aria-describedby": "club-sheet-help",
    });
    const form = el(
      "form",
      { class: "club-form", "aria-label": "Keep a score sheet" },
      el("div", { class: "field" }, el("label", { for: "club-sheet-players" }, "Players, in seating order from the first dealer"), names),
      el("p", { class: "help", id: "club-sheet-help" }, "Separate names with commas. A member's user name records that member: the sheet's hands count in their statistics."),
      el("button", { type: "submit", class: "primary" }, "Keep a score sheet"),
      status,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const players = names.value.split(",").map((n) => n.trim()).filter(Boolean);
      try {
        const made = await api(`${base}/evenings/${encodeURIComponent(data.evening.id)}/sheets`, { method: "POST", body: { players } });
        keepSheet(made.id, { token: made.edit_token, view: made.view_key, game: page.club.game, name: page.club.rules.name, players, created: Date.now(), via: "club" });
        location.hash = made.link;
      } catch (error) {
        status.textContent = errorText(error);
        status.setAttribute("role", "alert");
      }
    });
    return form;
  };

  const drawEvening = (/** @type {any} */ data) => {
    clear(eveningBody);
    const e = data.evening;
    append(
      eveningBody,
      el("h3", { class: "club-evening-name" }, `${dayText(e.day)}${e.name ? ` · ${e.name}` : ""}`, el("span", { class: "club-badge" }, kindText(e.kind))),
    );
    if (e.kind !== "cards") {
      if (data.tables.length) eveningBody.append(el("ul", { class: "club-tables", "aria-label": "The evening's tables" }, data.tables.map((/** @type {any} */ t) => tableCard(t, data))));
      else eveningBody.append(el("p", { class: "help" }, "No table yet."));
      if (organiser) {
        const bots = el("select", { id: "club-table-bots" }, [0, 1, 2, 3].filter((n) => n < page.club.players).map((n) => el("option", { value: String(n) }, n === 0 ? "none" : String(n))));
        const add = el("button", { type: "button" }, "Add a table");
        add.addEventListener("click", async () => {
          const count = Number(bots.value);
          const seats = Array.from({ length: page.club.players }, (_, i) => (i >= page.club.players - count ? "easy" : "human"));
          try {
            await api(`${base}/evenings/${encodeURIComponent(e.id)}/tables`, { method: "POST", body: { seats } });
            await refresh();
          } catch (error) {
            toast(errorText(error));
          }
        });
        const startAll = el("button", { type: "button" }, "Start every waiting table");
        startAll.addEventListener("click", async () => {
          try {
            await api(`${base}/evenings/${encodeURIComponent(e.id)}/start`, { method: "POST", body: { bot: "easy" } });
            await refresh();
          } catch (error) {
            toast(errorText(error));
          }
        });
        eveningBody.append(
          el("div", { class: "row club-actions" }, el("label", { for: "club-table-bots" }, "Bots at the new table"), bots, add, data.tables.some((/** @type {any} */ t) => t.status === "waiting") ? startAll : null),
        );
      }
    }
    if (e.kind === "cards" || data.sheets.length) {
      if (data.sheets.length) {
        eveningBody.append(
          figures(
            "Score sheets",
            ["Sheet", "Players", "Hands", "Scores"],
            data.sheets.map((/** @type {any} */ s, /** @type {number} */ i) => [
              el("a", { href: `#/score/${encodeURIComponent(s.sheet)}` }, `Sheet ${i + 1}`),
              s.players.join(", "),
              `${s.hands}${s.over ? " (over)" : ""}`,
              s.scores.join(" · "),
            ]),
          ),
        );
      }
      eveningBody.append(sheetForm(data));
    }
    if (data.results.length) {
      eveningBody.append(
        figures(
          "Results: members' points in finished games",
          ["Member", "Games", "Wins", "Points"],
          data.results.map((/** @type {any} */ r) => [r.name, r.finished, r.wins, r.points]),
        ),
      );
    }
    if (data.duplicate && data.duplicate.length) {
      const rows = data.duplicate;
      const place = places(rows, (/** @type {any} */ r) => `${r.percent} ${r.against_average}`);
      const live = data.tables.some((/** @type {any} */ t) => t.status !== "finished");
      const counted = Math.min(...rows.map((/** @type {any} */ r) => r.hands));
      append(
        eveningBody,
        live ? el("p", { class: "help" }, `So far: the ${plural(counted, "hand")} every table has finished.`) : null,
        figures(
          "Duplicate standings: matchpoints",
          ["#", "Player", "%", "Matchpoints", "Against average", "Seat", "Hands"],
          rows.map((/** @type {any} */ r, /** @type {number} */ i) => [
            String(place[i]),
            r.bot ? `${r.name} (bot)` : r.member && r.member === page.me ? `${r.name || ""} (you)` : r.name || "",
            percentText(r.percent),
            `${r.matchpoints} of ${r.top}`,
            signed(r.against_average),
            `Table ${r.table}, seat ${r.seat + 1}`,
            r.hands,
          ]),
          { rowHead: 1, mine: (index) => Boolean(rows[index].member) && rows[index].member === page.me },
        ),
        el("p", {}, el("a", { href: `#/duplicate/${encodeURIComponent(e.duplicate_set)}` }, "The duplicate set's page: each hand compared")),
      );
    }
  };

  const refresh = async () => {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    if (closed || !shown) return;
    try {
      const data = await getJSON(`${base}/evenings/${encodeURIComponent(shown)}`);
      if (closed) return;
      drawEvening(data);
      const live = data.tables.some((/** @type {any} */ t) => t.status !== "finished");
      if (live) timer = window.setTimeout(refresh, REFRESH_MS);
    } catch (error) {
      clear(eveningBody);
      eveningBody.append(el("p", { role: "alert" }, errorText(error)));
    }
  };

  append(
    eveningBox,
    el("h2", { id: "club-evening-title", class: "club-section-title" }, "Evenings"),
    el("div", { class: "panel" }, eveningList, eveningBody),
    organiser ? el("details", { class: "panel" }, el("summary", {}, "Plan an evening"), planForm()) : null,
  );

  // ---------------------------------------------------------------- standings
  const standingsBody = el("div", { "aria-live": "polite" });
  const from = el("input", { id: "club-from", type: "date" });
  const to = el("input", { id: "club-to", type: "date" });
  const by = el("select", { id: "club-by" }, el("option", { value: "points" }, "Points"), el("option", { value: "matchpoints" }, "Duplicate matchpoints"));
  const drawStandings = async () => {
    const query = new URLSearchParams({ by: by.value });
    if (from.value) query.set("from", from.value);
    if (to.value) query.set("to", to.value);
    try {
      const data = await getJSON(`${base}/standings?${query}`);
      clear(standingsBody);
      if (!data.standings.length) {
        standingsBody.append(el("p", { class: "help" }, "No game counted in this season yet."));
      } else if (data.by === "points") {
        // Ranked by the total, ties by more wins, then fewer games (docs/clubs.md).
        const place = places(data.standings, (/** @type {any} */ r) => `${r.points} ${r.wins} ${r.finished}`);
        standingsBody.append(
          figures(
            `Season by points, ${plural(data.evenings, "evening")}`,
            ["#", "Member", "Points", "Games", "Wins", "Points a game"],
            data.standings.map((/** @type {any} */ r, /** @type {number} */ i) => [String(place[i]), r.name, r.points, r.finished, r.wins, r.points_per_game ?? "–"]),
            { rowHead: 1, mine: (index) => data.standings[index].name === page.me },
          ),
        );
      } else {
        const place = places(data.standings, (/** @type {any} */ r) => String(r.percent));
        standingsBody.append(
          figures(
            `Season by duplicate matchpoints, ${plural(data.evenings, "evening")}`,
            ["#", "Member", "%", "Matchpoints", "Boards", "Evenings"],
            data.standings.map((/** @type {any} */ r, /** @type {number} */ i) => [String(place[i]), r.name, percentText(r.percent), `${r.matchpoints} of ${r.top}`, r.boards, r.evenings]),
            { rowHead: 1, mine: (index) => data.standings[index].name === page.me },
          ),
        );
      }
    } catch (error) {
      clear(standingsBody);
      standingsBody.append(el("p", { role: "alert" }, errorText(error)));
    }
  };
  for (const input of [from, to, by]) input.addEventListener("change", drawStandings);
  append(
    standingsBox,
    el("h2", { id: "club-standings-title", class: "club-section-title" }, "Standings"),
    el(
      "div",
      { class: "panel" },
      el("p", { class: "help" }, "A season is the evenings between two days (both kept; empty: no bound). By points: every finished game's final score summed, real-card sheets too. By duplicate matchpoints: each duplicate evening scored on its own, a member's matchpoints summed over the season as a share of the most they could have had."),
      el(
        "div",
        { class: "row club-season" },
        el("div", { class: "field" }, el("label", { for: "club-from" }, "From"), from),
        el("div", { class: "field" }, el("label", { for: "club-to" }, "To"), to),
        el("div", { class: "field" }, el("label", { for: "club-by" }, "Ranked by"), by),
      ),
      standingsBody,
    ),
  );

  // ---------------------------------------------------------------- statistics
  const drawStatistics = async () => {
    try {
      const data = await getJSON(`${base}/statistics`);
      const rows = [];
      for (const member of data.members) {
        for (const entry of member.statistics) {
          const t = entry.total;
          rows.push([
            el("a", { href: `#/player/${encodeURIComponent(member.name)}` }, member.name),
            entry.rules.text,
            entry.games,
            entry.sheets,
            t.hands,
            t.points_per_hand === null ? "–" : t.points_per_hand.toFixed(2),
            percent(t.accuracy),
            `${t.set} / ${t.over} / ${t.perfect}`,
          ]);
        }
      }
      append(
        statsBox,
        rows.length
          ? figures("The members' statistics in the club's games", ["Member", "Rules", "Games", "Sheets", "Hands", "Points a hand", "Bids made", "Set / Over / Perfect"], rows)
          : el("p", { class: "panel" }, "No finished game yet."),
      );
    } catch (error) {
      statsBox.append(el("p", { role: "alert" }, errorText(error)));
    }
  };
  statsBox.append(el("h2", { id: "club-stats-title", class: "club-section-title" }, "Members' statistics"));

  // ---------------------------------------------------------------- members
  const drawMembers = () => {
    clear(membersBox);
    const items = page.members.map((/** @type {any} */ m) => {
      const row = el("li", { class: "club-member" }, el("a", { href: `#/player/${encodeURIComponent(m.name)}` }, m.name), el("span", { class: "help" }, m.role === "organiser" ? " organiser" : " member"));
      if (organiser && m.name !== page.me) {
        const role = m.role === "organiser" ? "member" : "organiser";
        const change = el("button", { type: "button", class: "small" }, role === "organiser" ? `Make ${m.name} an organiser` : `Make ${m.name} a member`);
        change.addEventListener("click", async () => {
          try {
            await api(`${base}/members/${encodeURIComponent(m.name)}`, { method: "PATCH", body: { role } });
            page = await getJSON(base);
            drawMembers();
          } catch (error) {
            toast(errorText(error));
          }
        });
        row.append(change);
      }
      return row;
    });
    append(
      membersBox,
      el("h2", { id: "club-members-title", class: "club-section-title" }, "Members"),
      el("div", { class: "panel" }, el("ul", { class: "club-members", "aria-label": "Members" }, items), organiser ? invitePanel() : null),
    );
  };

  const invitePanel = () => {
    const box = el("div", { class: "club-invites" });
    const days = el("select", { id: "club-invite-days" }, [1, 7, 30].map((d) => el("option", { value: String(d), selected: d === 7 }, d === 1 ? "1 day" : `${d} days`)));
    const made = el("div", { "aria-live": "polite" });
    const list = el("ul", { class: "club-invite-list", "aria-label": "Invitations" });
    const drawList = async () => {
      const data = await getJSON(`${base}/invites`);
      clear(list);
      for (const invite of data.invites.filter((/** @type {any} */ i) => i.open)) {
        const revoke = el("button", { type: "button", class: "small" }, "Revoke");
        revoke.setAttribute("aria-label", `Revoke the invitation made ${dayText(invite.created_at)}`);
        revoke.addEventListener("click", async () => {
          await api(`${base}/invites/${encodeURIComponent(invite.id)}`, { method: "DELETE" });
          clear(made);
          await drawList();
        });
        list.append(el("li", {}, `Made ${dayText(invite.created_at)}, good until ${dayText(invite.expires_at)}, accepted ${invite.uses} times `, revoke));
      }
    };
    const make = el("button", { type: "button" }, "Make an invitation link");
    make.addEventListener("click", async () => {
      try {
        const invite = await api(`${base}/invites`, { method: "POST", body: { days: Number(days.value) } });
        const url = new URL(invite.link, location.href).href;
        const copy = el("button", { type: "button", class: "small" }, "Copy");
        copy.addEventListener("click", async () => toast((await copyText(url)) ? "Link copied." : "Copy it by hand."));
        clear(made);
        made.append(el("p", { class: "help" }, "Send this link to whoever you invite: it is shown this once, and anyone who has it may join until it expires or you revoke it."), el("div", { class: "row" }, el("input", { readonly: true, value: url, "aria-label": "Invitation link", class: "club-link" }), copy));
        await drawList();
      } catch (error) {
        toast(errorText(error));
      }
    });
    append(box, el("h3", {}, "Invite"), el("div", { class: "row" }, el("label", { for: "club-invite-days" }, "Good for"), days, make), made, list);
    drawList().catch(() => {});
    return box;
  };

  const me = await getJSON("/api/me").catch(() => null);
  page.me = me ? me.user.name : null;
  root.append(
    el(
      "div",
      { class: "club-head" },
      el("h1", { class: "page-title" }, page.club.name),
      el("p", { class: "help" }, "House rules: ", el("strong", {}, page.club.rules.text), ` · ${page.club.players} at a table${page.club.hands ? ` · ${page.club.hands} hands` : ""} · `, el("code", { class: "club-fingerprint", title: "The fingerprint of these exact rules and options" }, page.club.rules.fingerprint)),
    ),
    eveningBox,
    standingsBox,
    statsBox,
    membersBox,
  );
  drawEveningList();
  drawMembers();
  await Promise.all([refresh(), drawStandings(), drawStatistics()]);
  return () => {
    closed = true;
    if (timer !== null) window.clearTimeout(timer);
  };
}
