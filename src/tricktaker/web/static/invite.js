// @ts-check
// Invitations: #/invite/ID (the link to send while waiting for players, and who sits
// where) and #/join/ID?invite=CODE (take a seat with an invite link).

import {
  errorText,
  getTable,
  inviteLink,
  joinTable,
  saveInvite,
  saveName,
  saveSeat,
  savedInvite,
  savedName,
  seatToken,
} from "./api.js";
import { append, clear, copyText, el, toast } from "./dom.js";

/**
 * A seat as a person reads it: numbered from 1 ("Seat 1" is the wire's seat 0).
 * @param {number} seat
 */
const seatLabel = (seat) => `Seat ${seat + 1}`;

/**
 * The game's name as its rules give it ("Blackout"; a house-rules file's own name),
 * else its id in words.
 * @param {import("./api.js").TableInfo} table
 * @returns {string}
 */
function gameName(table) {
  const name = table.ruleset && table.ruleset.name;
  return typeof name === "string" && name ? name : table.game.replace(/_/g, " ");
}

/**
 * Who sits at a seat, as the lobby and the invitations say it: the person's name, a bot's
 * name with its level ("Ada (easy)"), or `free`.
 * @param {import("./api.js").SeatInfo} seat
 * @param {string} [free]
 * @returns {string}
 */
export function seatWho(seat, free = "free") {
  if (seat.kind === "bot") return seat.name ? `${seat.name} (${seat.bot})` : `bot (${seat.bot})`;
  return seat.name || free;
}

// -------------------------------------------------------------------- #/invite/ID

/**
 * While people are invited: the link to send, who sits where, and the way to the table.
 * @param {HTMLElement} root
 * @param {{tableId: string}} where
 * @returns {Promise<() => void>} what unmounts it
 */
export async function mountInvite(root, { tableId }) {
  const invite = savedInvite(tableId);
  const seatsBox = el("ul", { class: "seat-states", role: "list", "aria-live": "polite" });
  const note = el("p", { class: "help", role: "status" });
  const link = invite ? inviteLink(tableId, invite) : null;
  const linkInput = link
    ? el("input", { id: "invite-link", type: "text", readonly: true, value: link, onfocus: (/** @type {FocusEvent} */ e) => /** @type {HTMLInputElement} */ (e.target).select() })
    : null;
  append(root, [
    el(
      "section",
      { class: "panel narrow" },
      el("h1", {}, "Waiting for players"),
      link
        ? [
            el("p", {}, "Send this link to the people you invite; it takes them to a free seat."),
            el(
              "p",
              { class: "field copy-field" },
              el("label", { for: "invite-link" }, "Invite link"),
              linkInput,
              el("button", {
                type: "button",
                id: "copy-invite",
                onclick: async () => toast((await copyText(link)) ? "Invite link copied." : "Copy the link by hand."),
              }, "Copy"),
            ),
          ]
        : el("p", { class: "help" }, "This browser does not know the table's invite code."),
      el("h2", {}, "Seats"),
      seatsBox,
      note,
      el("p", { class: "row" },
        el("a", { class: "button primary", href: `#/table/${encodeURIComponent(tableId)}`, id: "go-to-table" }, "Go to the table"),
        el("a", { class: "button", href: "#/" }, "Lobby")),
    ),
  ]);
  let stopped = false;
  let shown = "";
  async function refresh() {
    let table;
    try {
      table = await getTable(tableId);
    } catch (error) {
      note.textContent = errorText(error);
      return;
    }
    if (stopped) return;
    const lines = table.seats.map((seat) => [
      seat.state,
      `${seatLabel(seat.seat)}: ${seatWho(seat, seat.open ? "free: open to anyone" : "free: waiting for someone")}`,
    ]);
    // Drawn again only when a seat changed: the list is a live region, and a screen reader
    // reads again whatever is put back in it.
    const now = JSON.stringify(lines);
    if (now !== shown) {
      shown = now;
      clear(seatsBox);
      for (const [state, text] of lines) seatsBox.append(el("li", { class: `seat-state ${state}` }, text));
    }
    const free = table.seats.filter((s) => s.state === "free").length;
    const said =
      table.status !== "waiting"
        ? "The game has started."
        : free
          ? `${free} seat${free === 1 ? "" : "s"} still free.`
          : "Everyone is here: start the game at the table.";
    if (note.textContent !== said) note.textContent = said;
  }
  await refresh();
  const timer = setInterval(refresh, 2000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

// -------------------------------------------------------------------- #/join/ID

/**
 * An invite link: ask a name (and a seat), join, keep the token, go to the table.
 * @param {HTMLElement} root
 * @param {{tableId: string, invite: string}} where
 * @returns {Promise<() => void>} what unmounts it
 */
export async function mountJoin(root, { tableId, invite }) {
  const id = encodeURIComponent(tableId);
  if (seatToken(tableId)) {
    location.replace(`#/table/${id}`);
    return () => {};
  }
  let table;
  try {
    table = await getTable(tableId);
  } catch (error) {
    append(root, el("section", { class: "panel narrow", role: "alert" },
      el("h1", {}, "No such table"), el("p", {}, errorText(error)), el("a", { href: "#/" }, "Back to the lobby")));
    return () => {};
  }
  const free = table.seats.filter((s) => s.state === "free");
  const name = el("input", { id: "join-name", type: "text", maxlength: "40", required: true, autocomplete: "nickname", value: savedName() });
  const seat = el(
    "select",
    { id: "join-seat" },
    el("option", { value: "" }, "Any free seat"),
    free.map((s) => el("option", { value: String(s.seat) }, seatLabel(s.seat))),
  );
  const error = el("p", { class: "form-error", role: "alert", id: "join-error" });
  const button = el("button", { type: "submit", class: "primary", id: "join" }, "Take the seat");
  const form = el(
    "form",
    {
      class: "join",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        error.textContent = "";
        const who = name.value.trim();
        if (!who) {
          error.textContent = "Give your name: the other players see it.";
          name.focus();
          return;
        }
        saveName(who);
        button.disabled = true;
        try {
          const joined = await joinTable(tableId, invite, who, seat.value === "" ? null : Number(seat.value));
          saveSeat(tableId, joined.seat, joined.seat_token);
          saveInvite(tableId, invite);
          location.hash = `#/table/${id}`;
        } catch (failure) {
          button.disabled = false;
          error.textContent = errorText(failure);
        }
      },
    },
    el("p", { class: "field" }, el("label", { for: "join-name" }, "Your name"), name),
    free.length ? el("p", { class: "field" }, el("label", { for: "join-seat" }, "Seat"), seat) : null,
    el("p", { class: "row" }, button, el("a", { class: "button", href: `#/table/${id}?watch=1` }, "Just watch")),
    error,
  );
  const who = table.seats.map((s) => `${seatLabel(s.seat)}: ${seatWho(s, s.open ? "free, open to anyone" : "free, kept for an invited player")}`);
  append(root, el(
    "section",
    { class: "panel narrow" },
    el("h1", {}, `Join a table of ${gameName(table)}`),
    el("p", { class: "help" }, `${table.players} players · ${table.status === "waiting" ? "waiting to start" : table.status}`),
    el("ul", { class: "seat-states" }, who.map((w) => el("li", {}, w))),
    free.length ? form : el("p", { role: "alert" }, "Every seat is taken. ", el("a", { href: `#/table/${id}?watch=1` }, "Watch instead")),
  ));
  if (free.length) name.focus();
  return () => {};
}
