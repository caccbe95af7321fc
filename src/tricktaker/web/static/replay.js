// Replays: a finished game stepped through event by event, trick by trick and hand by
// hand, with every hand shown. The frames are computed by the server's engine
// (POST /api/replays for a record file, GET /api/tables/ID/replay for a table's game).
//
//   #/replay            open a record file, or a finished table
//   #/replay?r=RID      a record file opened before (kept by the server while it runs)
//   #/replay/ID?game=N  game N (default: the last) of table ID, with its record to download

import {
  getReplay,
  knownTables,
  recordUrl,
  tableReplay,
  uploadReplay,
} from "./api.js";
import { append, cardName, cardText, clear, el, suitText } from "./dom.js";

/** Card drawing: W2's cards.js when it loads, else text chips. */
async function cardDrawer() {
  try {
    const cards = await import("./cards.js");
    const fourColour = typeof cards.fourColourChosen === "function" ? cards.fourColourChosen() : false;
    return (code) => {
      const drawn = cards.cardSvg(code, { fourColour });
      if (typeof drawn === "string") {
        const box = el("span", { class: "card-box", role: "img", "aria-label": cardName(code) });
        box.innerHTML = drawn; // our own SVG, from our own module
        return box;
      }
      return drawn;
    };
  } catch {
    return null;
  }
}

function textCard(code) {
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D";
  return el(
    "span",
    { class: `card-chip${red ? " red" : ""}`, role: "img", "aria-label": cardName(code), dataset: { card: code } },
    cardText(code),
  );
}

/** The score sheet drawing of scorecard.js (and its styles), or null without it. */
async function scoreSheet() {
  try {
    const module = await import("./scorecard.js");
    if (typeof module.renderScorecard !== "function") return null;
    if (!document.querySelector("link[data-tricktaker-table]")) {
      const href = new URL("./table.css", import.meta.url).href;
      document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-table": "" }));
    }
    return module.renderScorecard;
  } catch {
    return null;
  }
}

/**
 * The game's score sheet as it stood after its first `count` hands: the rows so far and
 * the totals, stacks and Set/Over/Perfect counts of the last of them (the sheet itself
 * is computed by the server's presentation layer; this only cuts it short).
 */
export function sheetAfter(card, count) {
  const rows = card.rows.slice(0, count);
  const last = rows[rows.length - 1];
  const cut = { ...card, rows, series: card.series.slice(0, count) };
  if (Array.isArray(card.team_series)) cut.team_series = card.team_series.slice(0, count);
  if (last) {
    cut.totals = last.seats.map((s) => s.total);
    if (Array.isArray(card.team_totals) && last.teams && last.teams.length) {
      cut.team_totals = last.teams.map((t) => t.total);
    }
    if (card.stacks) cut.stacks = last.seats.map((s) => s.stack);
  }
  if (Array.isArray(card.counts)) {
    cut.counts = card.names.map((_, seat) => {
      const tally = { S: 0, O: 0, P: 0 };
      for (const row of rows) {
        const outcome = row.seats[seat] && row.seats[seat].outcome;
        if (outcome in tally) tally[outcome] += 1;
      }
      return tally;
    });
  }
  return cut;
}

/** The replay page. */
export async function mountReplay(root, { tableId = null, game = null, replayId = null } = {}) {
  if (!tableId && !replayId) return mountPicker(root);
  append(root, el("h1", { class: "page-title" }, "Replay"));
  const status = el("p", { class: "loading", role: "status" }, "Replaying the game…");
  root.append(status);
  let replay;
  try {
    replay = tableId ? await tableReplay(tableId, game) : await getReplay(replayId);
  } catch (error) {
    status.replaceWith(
      el(
        "section",
        { class: "panel", role: "alert" },
        el("p", {}, `This game cannot be replayed: ${error.message}`),
        el("p", {}, el("a", { href: "#/replay" }, "Open another game")),
      ),
    );
    return () => {};
  }
  status.remove();
  const [draw, drawSheet] = await Promise.all([cardDrawer(), scoreSheet()]);
  return viewer(root, replay, {
    names: replay.names || Array.from({ length: replay.players }, (_, s) => `Seat ${s}`),
    drawCard: draw || textCard,
    drawSheet,
    tableId,
    game,
  });
}

// -------------------------------------------------------------------- the picker

function mountPicker(root) {
  const error = el("p", { class: "form-error", role: "alert", id: "record-error" });
  const file = el("input", {
    id: "record-file",
    type: "file",
    accept: ".json,application/json",
    onchange: () => file.files && file.files[0] && open(file.files[0]),
  });
  async function open(picked) {
    error.textContent = "";
    let record;
    try {
      record = JSON.parse(await picked.text());
    } catch {
      error.textContent = `${picked.name} is not a tricktaker record (not JSON).`;
      return;
    }
    try {
      const replay = await uploadReplay(record);
      location.hash = `#/replay?r=${encodeURIComponent(replay.id)}`;
    } catch (failure) {
      error.textContent =
        failure.status === 413
          ? `${picked.name} is too large to send; replay it with: tricktaker replay FILE --web`
          : `${picked.name} cannot be replayed: ${failure.message}`;
    }
  }
  const drop = el(
    "div",
    {
      class: "drop-zone",
      ondragover: (e) => {
        e.preventDefault();
        drop.classList.add("over");
      },
      ondragleave: () => drop.classList.remove("over"),
      ondrop: (e) => {
        e.preventDefault();
        drop.classList.remove("over");
        const picked = e.dataTransfer && e.dataTransfer.files[0];
        if (picked) open(picked);
      },
    },
    el("label", { for: "record-file" }, "Open a record file (.json)"),
    file,
    el("p", { class: "help" }, "A record is what ", el("code", {}, "tricktaker play --record DIR"), " writes, or what a finished table offers to download. You may also drop the file here."),
  );
  const tableInput = el("input", { id: "replay-table", type: "text", placeholder: "table id or link", autocomplete: "off" });
  const tableForm = el(
    "form",
    {
      class: "row",
      onsubmit: (e) => {
        e.preventDefault();
        const text = tableInput.value.trim();
        const found = /(?:tables?\/|#\/(?:table|replay|join)\/)([A-Za-z0-9_-]+)/.exec(text);
        const id = found ? found[1] : text;
        if (id) location.hash = `#/replay/${encodeURIComponent(id)}`;
      },
    },
    el("label", { for: "replay-table" }, "A finished table"),
    tableInput,
    el("button", { type: "submit" }, "Replay"),
  );
  const mine = knownTables();
  append(root, [
    el("h1", { class: "page-title" }, "Replays"),
    el(
      "section",
      { class: "panel narrow" },
      el("h2", {}, "A record file"),
      drop,
      error,
      el("h2", {}, "A table's game"),
      el("p", { class: "help" }, "A table's game can be replayed once it is over (the replay shows every hand)."),
      tableForm,
      mine.length
        ? el(
            "ul",
            { class: "known-tables", "aria-label": "Tables you played at in this browser" },
            mine.map((id) => el("li", {}, el("a", { href: `#/replay/${encodeURIComponent(id)}` }, `Table ${id}`))),
          )
        : null,
    ),
  ]);
  return () => {};
}

// -------------------------------------------------------------------- the viewer

function viewer(root, replay, { names, drawCard, drawSheet, tableId, game }) {
  const frames = replay.frames;
  const last = frames.length - 1;
  const trickFrames = replay.hands.flatMap((h) => h.tricks.map((t) => t.frame));
  const handFrames = replay.hands.map((h) => h.frame);
  let step = 0;

  const statusLine = el("p", { class: "replay-status", id: "replay-status", "aria-live": "polite" });
  const eventLine = el("p", { class: "replay-event", id: "replay-event" });
  const linesBox = el("dl", { class: "replay-lines", id: "replay-lines" });
  const seatsBox = el("div", { class: "replay-seats", id: "replay-seats" });
  const trickBox = el("div", { class: "replay-trick", id: "replay-trick", "aria-label": "The trick" });
  const sheetBox = el("div", { class: "replay-sheet", id: "replay-sheet" });
  const range = el("input", {
    type: "range",
    id: "replay-step",
    min: "0",
    max: String(last),
    value: "0",
    "aria-label": "Step of the game",
    oninput: () => go(Number(range.value)),
  });
  const handSelect = el(
    "select",
    { id: "replay-hand", "aria-label": "Go to hand", onchange: () => go(Number(handSelect.value)) },
    replay.hands.map((h) => el("option", { value: String(h.frame) }, `Hand ${h.number}`)),
  );

  const nextOf = (marks) => marks.find((f) => f > step) ?? last;
  const prevOf = (marks) => [...marks].reverse().find((f) => f < step) ?? 0;
  const button = (label, text, key, action, id) =>
    el("button", { type: "button", "aria-label": `${label} (${key})`, title: `${label} (${key})`, id, onclick: action }, text);
  const controls = el(
    "div",
    { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    button("Start", "« Start", "Home", () => go(0), "replay-start"),
    button("Previous hand", "« Hand", "Page Up", () => go(prevOf(handFrames)), "replay-prev-hand"),
    button("Previous trick", "‹ Trick", "Shift+Left", () => go(prevOf(trickFrames)), "replay-prev-trick"),
    button("Step back", "◀", "Left", () => go(step - 1), "replay-back"),
    button("Step forward", "▶", "Right", () => go(step + 1), "replay-forward"),
    button("Next trick", "Trick ›", "Shift+Right", () => go(nextOf(trickFrames)), "replay-next-trick"),
    button("Next hand", "Hand »", "Page Down", () => go(nextOf(handFrames)), "replay-next-hand"),
    button("End", "End »", "End", () => go(last), "replay-end"),
  );

  const options = Object.entries(replay.options || {})
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v === true ? "on" : v === false ? "off" : v}`)
    .join(", ");
  const finalLine = replay.finished
    ? `Final scores: ${names.map((n, s) => `${n} ${replay.final_scores[s]}`).join(", ")}` +
      (replay.winners.length && !replay.cooperative ? ` · won by ${replay.winners.map((s) => names[s]).join(" and ")}` : "")
    : "The record ends before the game is over.";
  const download = tableId
    ? el("a", { class: "button", id: "download-record", href: recordUrl(tableId, game), download: `${replay.game}-${tableId}${game ? `-${game}` : ""}.json` }, "Download the record")
    : null;

  append(root, [
    el(
      "section",
      { class: "panel replay", "aria-labelledby": "replay-title" },
      el("h2", { id: "replay-title" }, replay.name),
      el("p", { class: "help" }, `${replay.players} players · seed ${replay.seed}${options ? ` · ${options}` : ""}`),
      el("p", { class: "replay-final" }, finalLine),
      el("div", { class: "row" }, download, el("a", { class: "button", href: "#/replay" }, "Another game")),
      controls,
      el("div", { class: "row replay-position" }, range, handSelect),
      statusLine,
      eventLine,
      linesBox,
      el("div", { class: "replay-table" }, trickBox, seatsBox),
      el("p", { class: "help keys" }, "Keys: ← → a step, Shift+← → a trick, Page Up/Down a hand, Home/End."),
    ),
    el("section", { class: "panel", "aria-labelledby": "sheet-title" }, el("h2", { id: "sheet-title" }, "Score sheet"), sheetBox),
  ]);

  function actorText(frame) {
    if (frame.step === 0) return "Before the first deal.";
    if (frame.narration && frame.narration.length) return frame.narration.join(" ");
    if (frame.chance) return frame.chance === "deal" ? "The cards are dealt." : `Chance: ${frame.chance.replace(/_/g, " ")}.`;
    return `${names[frame.actor]}: ${frame.action}`;
  }

  function completedTrick() {
    for (const hand of replay.hands) {
      for (const trick of hand.tricks) if (trick.frame === step) return trick;
    }
    return null;
  }

  function handAt() {
    let found = replay.hands[0];
    for (const hand of replay.hands) if (hand.frame <= step) found = hand;
    return found;
  }

  function render() {
    const frame = frames[step];
    const hand = handAt();
    const inGame = frame.phase !== "game_over";
    const parts = [];
    if (inGame && frame.hand_number) {
      parts.push(`Hand ${frame.hand_number}${frame.hands_in_game ? ` of ${frame.hands_in_game}` : ""}`);
      parts.push(`${frame.hand_size} card${frame.hand_size === 1 ? "" : "s"}`);
      parts.push(`dealer ${names[frame.dealer]}`);
      if (frame.trump) parts.push(`trump ${suitText(frame.trump)}${frame.turn_up ? ` (turn-up ${cardText(frame.turn_up)})` : ""}`);
      else if (frame.phase !== "deal" && frame.phase !== "bidding") parts.push("no trump");
      if (frame.special) parts.push(frame.special.replace(/_/g, " "));
    } else if (!inGame) {
      parts.push("Game over");
    }
    parts.push(`step ${step} of ${last}`);
    statusLine.textContent = parts.join(" · ");
    eventLine.textContent = actorText(frame);
    clear(linesBox);
    for (const line of frame.lines || []) {
      linesBox.append(el("dt", {}, line.label), el("dd", {}, line.text));
    }
    range.value = String(step);
    if (hand) handSelect.value = String(hand.frame);

    // The trick: the one on the table, or the one this step completed.
    clear(trickBox);
    const done = completedTrick();
    const cards = done ? done.cards : frame.current_trick;
    trickBox.append(el("h3", {}, done ? `Trick won by ${names[done.winner]}` : cards.length ? "On the table" : "No cards on the table"));
    const row = el("ol", { class: "trick-cards" });
    for (const [seat, code] of cards) {
      row.append(el("li", { class: done && done.winner === seat ? "winner" : "" }, drawCard(code), el("span", { class: "who" }, names[seat])));
    }
    trickBox.append(row);

    // The seats, every hand shown.
    clear(seatsBox);
    for (let seat = 0; seat < replay.players; seat += 1) seatsBox.append(seatBox(frame, seat, done));
    renderSheet();
  }

  function seatBox(frame, seat, done) {
    const badges = [];
    if (frame.dealer === seat && frame.phase !== "game_over") badges.push(el("span", { class: "badge" }, "dealer"));
    if (frame.to_act.includes(seat)) badges.push(el("span", { class: "badge turn" }, "to act"));
    if (done && done.winner === seat) badges.push(el("span", { class: "badge win" }, "wins the trick"));
    const bid = frame.bids[seat];
    const facts = [];
    if (bid !== null && bid !== undefined) facts.push(`bid ${bid}`);
    facts.push(`tricks ${frame.tricks_won[seat]}`);
    if (!replay.cooperative) facts.push(`score ${frame.scores[seat]}`);
    for (const [key, value] of Object.entries(frame.extra || {})) {
      if (Array.isArray(value) && value.length === replay.players && value.every((v) => typeof v !== "object" || v === null)) {
        facts.push(`${key.replace(/_/g, " ")} ${value[seat] === null ? "-" : value[seat]}`);
      }
    }
    for (const line of (frame.seat_lines && frame.seat_lines[seat]) || []) {
      facts.push(`${line.label}: ${line.text}`);
    }
    const cards = frame.hands[seat];
    return el(
      "section",
      { class: `replay-seat${frame.to_act.includes(seat) ? " acting" : ""}`, "aria-label": names[seat], dataset: { seat: String(seat) } },
      el("h3", {}, names[seat], " ", badges),
      el("p", { class: "facts" }, facts.join(" · ")),
      el(
        "ul",
        { class: "hand", "aria-label": `${names[seat]}'s cards: ${cards.length ? cards.map(cardName).join(", ") : "none"}` },
        cards.map((code) => el("li", {}, drawCard(code))),
      ),
    );
  }

  function renderSheet() {
    clear(sheetBox);
    const finished = replay.hands.filter((h) => h.result && h.end <= step);
    if (!finished.length) {
      sheetBox.append(el("p", { class: "help" }, "The sheet fills in as each hand ends."));
      return;
    }
    if (drawSheet && replay.scorecard) {
      try {
        drawSheet(sheetBox, sheetAfter(replay.scorecard, finished.length));
        return;
      } catch (error) {
        console.warn("the score sheet could not be drawn; a plain one instead", error);
        clear(sheetBox);
      }
    }
    const table = el(
      "table",
      { class: "sheet" },
      el("caption", { class: "offscreen" }, "Each finished hand: bid, tricks, score and total of every player"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Hand"), names.map((n) => el("th", { scope: "col" }, n)))),
    );
    const body = el("tbody");
    for (const hand of finished) {
      const r = hand.result;
      const cells = names.map((_, s) => {
        const bid = r.bids && r.bids.length === names.length ? `${r.bids[s]}/` : "";
        const score = r.hand_scores ? ` ${r.hand_scores[s] >= 0 ? "+" : ""}${r.hand_scores[s]}` : "";
        const total = r.total_scores ? ` = ${r.total_scores[s]}` : "";
        return el("td", {}, `${bid}${r.tricks[s]}${replay.cooperative ? "" : `${score}${total}`}`);
      });
      const label = `${r.hand} · ${r.hand_size}${r.trump ? ` ${suitText(r.trump).split(" ")[0]}` : ""}`;
      body.append(el("tr", {}, el("th", { scope: "row" }, el("a", { href: "#", onclick: (e) => { e.preventDefault(); go(hand.frame); } }, label)), cells));
    }
    table.append(body);
    sheetBox.append(el("p", { class: "help" }, "Each cell: bid/tricks, the hand's score = the total."), el("div", { class: "sheet-scroll" }, table));
  }

  function go(target) {
    const next = Math.max(0, Math.min(last, Number.isFinite(target) ? target : 0));
    if (next === step && statusLine.textContent) return;
    step = next;
    render();
  }

  function onKey(event) {
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowRight: () => go(event.shiftKey ? nextOf(trickFrames) : step + 1),
      ArrowLeft: () => go(event.shiftKey ? prevOf(trickFrames) : step - 1),
      PageDown: () => go(nextOf(handFrames)),
      PageUp: () => go(prevOf(handFrames)),
      Home: () => go(0),
      End: () => go(last),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  document.addEventListener("keydown", onKey);
  render();
  return () => document.removeEventListener("keydown", onKey);
}
