// @ts-check
// What a player shares (docs/players.md, What you share): on their own page, a form
// to choose who sees the page, the history of games, the score sheets and the ratings
// (PUT /api/me/privacy); on anyone else's, a plain list of what its player does not
// share with the visitor. The server decides and enforces it; this only shows it.

import { api, errorText } from "./api.js";
import { el } from "./dom.js";

/** The parts a player decides on, in the order the form lists them. */
export const PARTS = /** @type {const} */ (["page", "history", "sheets", "ratings"]);

/** What each part is, for the form and for a visitor. */
const PART_NAMES = {
  page: "Your page",
  history: "The history of your games",
  sheets: "The score sheets you keep",
  ratings: "Your ratings",
};

/** What each part holds, under its choice. */
const PART_HELP = {
  page: "Your statistics, and everything below: a part is never shown more widely than the page.",
  history: "Your finished games at public tables, with their replays. Your unlisted tables are always yours alone.",
  sheets: "The real-card games you keep, with the names of everyone on them. Their hands count in your statistics whatever you choose.",
  ratings: "Your rating under each set of rules.",
};

/** Whom an audience is, on the form. */
const AUDIENCE_CHOICES = {
  public: "Everyone",
  clubs: "Members of my clubs",
  private: "Only me",
};

/**
 * The form of the player's own settings.
 * @param {Record<string, string>} privacy the stored settings (GET /api/players/{name}'s `privacy`)
 */
export function privacyPanel(privacy) {
  const status = el("p", { class: "help", role: "status", id: "privacy-status" });
  const save = el("button", { type: "submit", class: "primary", id: "privacy-save" }, "Save");
  /** @type {Record<string, HTMLSelectElement>} */
  const selects = {};
  const rows = PARTS.map((part) => {
    const id = `privacy-${part}`;
    const select = /** @type {HTMLSelectElement} */ (
      el(
        "select",
        { id, name: part, "aria-describedby": `${id}-help` },
        Object.entries(AUDIENCE_CHOICES).map(([value, text]) =>
          el("option", { value, selected: privacy[part] === value }, text),
        ),
      )
    );
    select.value = privacy[part];
    selects[part] = select;
    return el(
      "div",
      { class: "player-privacy-row" },
      el("label", { for: id }, PART_NAMES[part]),
      select,
      el("p", { class: "help", id: `${id}-help` }, PART_HELP[part]),
    );
  });
  const form = el(
    "form",
    { class: "player-privacy-form", "aria-labelledby": "player-privacy-title" },
    rows,
    el("div", { class: "row" }, save, status),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    save.disabled = true;
    status.textContent = "Saving…";
    /** @type {Record<string, string>} */
    const body = {};
    for (const part of PARTS) body[part] = selects[part].value;
    try {
      const answer = await api("/api/me/privacy", { method: "PUT", body });
      for (const part of PARTS) selects[part].value = answer.privacy[part];
      status.textContent = "Saved: others now see what you chose.";
    } catch (error) {
      status.textContent = errorText(error);
    } finally {
      save.disabled = false;
    }
  });
  return el(
    "section",
    { class: "panel player-privacy", "aria-labelledby": "player-privacy-title" },
    el("h2", { id: "player-privacy-title" }, "What you share"),
    el(
      "p",
      { class: "help" },
      "Who may see what of this page. “Members of my clubs” are the people in any club you belong to. Club evenings still show your name and results to the club's members.",
    ),
    form,
  );
}

/** What each part is, to a visitor. @type {Record<string, string>} */
const SEEN_NAMES = {
  page: "This page: statistics, ratings and games",
  history: "The history of games",
  sheets: "The score sheets kept",
  ratings: "The ratings",
};

/**
 * To whom a part is shown, in words for a visitor.
 * @param {string} audience
 * @param {string} name the player's name
 */
function sharedWith(audience, name) {
  return audience === "clubs" ? `shared only with the members of ${name}'s clubs` : `shared with nobody but ${name}`;
}

/**
 * The list of what the player does not share with this visitor (null: everything is
 * shared, or this is the player's own page).
 * @param {any} data the page (GET /api/players/{name})
 * @param {boolean} signedIn whether the visitor has an account session
 */
export function notSharedPanel(data, signedIn) {
  if (data.own) return null;
  const name = data.player.name;
  const hidden = data.shared.page ? PARTS.filter((part) => !data.shared[part]) : ["page"];
  if (!hidden.length) return null;
  const clubsOnly = hidden.some((part) => data.audience[part] === "clubs");
  return el(
    "section",
    { class: "panel player-not-shared", "aria-labelledby": "player-not-shared-title" },
    el("h2", { id: "player-not-shared-title" }, `What ${name} does not share with you`),
    el(
      "ul",
      {},
      hidden.map((part) =>
        el("li", {}, el("strong", {}, SEEN_NAMES[part]), `: ${sharedWith(data.audience[part], name)}.`),
      ),
    ),
    clubsOnly
      ? el(
          "p",
          { class: "help" },
          signedIn
            ? `You are not in a club with ${name}.`
            : `If you are in a club with ${name}, log in to see more.`,
          signedIn ? null : [" ", el("a", { href: "#/account" }, "Log in")],
        )
      : null,
  );
}
