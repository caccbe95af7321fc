// @ts-check
// Clubs (docs/clubs.md): #/club/ID (a club's evenings with their tables live, results,
// standings over a season, the members' statistics, its members and invitations); the
// module also answers #/clubs and #/club-invite/CODE, which club-join.js draws.
// Everything is the server's (/api/clubs...); this lays it out and sends what a person
// asks for. No card is ever shown here: a table's cards are its own page's.

import { csrfToken } from "./account-session.js";
import { api, errorText, getJSON, saveSeat, seatToken } from "./api.js";
import { append, clear, copyText, el, toast } from "./dom.js";
import { clubStyles, dayText, percent, plural, signInPanel, errorPanel, figures, percentText, signed, places } from "./club-parts.js";
import { keepSheet } from "./scorekeeper-start.js";

export { mountClubInvite, mountClubs } from "./club-join.js";

/** How often an evening's tables are read again while the page is open, in ms. */
const REFRESH_MS = 5000;

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
    // A finished game is gone over hand by hand in its replay (its first game: the club's).
    if (table.status === "finished" && !sealed) actions.append(el("a", { class: "button", href: `#/replay/${encodeURIComponent(table.table)}?game=1` }, "Replay"));
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
      { class: "club-table-card", dataset: { status: table.status, table: table.table } },
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

  /** The evening's answer last drawn: a poll that brings nothing new redraws nothing. */
  let drawnEvening = "";

  /**
   * What holds the focus in the evening's part, to be found again once it is redrawn (a
   * poll must not take a reader's focus away): its table, tag and words.
   * @returns {((node: Element) => boolean) | null}
   */
  const focusedControl = () => {
    const active = document.activeElement;
    if (!active || active === eveningBody || !eveningBody.contains(active)) return null;
    const card = active.closest("[data-table]");
    const table = card instanceof HTMLElement ? card.dataset.table : null;
    const words = active.textContent;
    return (node) => {
      const around = node.closest("[data-table]");
      return node.tagName === active.tagName && node.textContent === words && (around instanceof HTMLElement ? around.dataset.table : null) === table;
    };
  };

  const drawEvening = (/** @type {any} */ data) => {
    const seen = JSON.stringify(data);
    if (seen === drawnEvening) return;
    drawnEvening = seen;
    const refocus = focusedControl();
    drawEveningParts(data);
    if (refocus) {
      const again = [...eveningBody.querySelectorAll("a, button, select, input")].find(refocus);
      if (again instanceof HTMLElement) again.focus();
    }
  };

  const drawEveningParts = (/** @type {any} */ data) => {
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
      drawnEvening = "";
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
