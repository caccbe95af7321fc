// The card table: mountTable(root, {tableId, token, spectator}) plays one seat of a
// table (or watches it) over the table's WebSocket (docs/protocol.md) and answers a
// function that unmounts it (closes the socket, stops the timers).
//
// The seat token is kept in localStorage (`tricktaker.seat.<tableId>`), so a reload,
// or another device given the token, takes the same seat back. Every choice offered
// comes from the server's legal_actions; anything else a person tries is sent and the
// server's refusal (which names the rule) is shown.

import { chooseFourColour, fourColourChosen } from "./cards.js";
import { renderScorecard } from "./scorecard.js";
import { el as h } from "./dom.js";
import { actionLabel, groupActions, readTyped } from "./table-actions.js";
import {
  renderControls,
  renderHand,
  renderPanel,
  renderPresence,
  renderSeat,
  renderTrick,
  renderWhere,
  seatName,
  seatStateText,
} from "./table-render.js";
import { TableSocket } from "./table-socket.js";

const DEFAULT_TRICK_PAUSE_MS = 1500;
const LOG_LINES = 200;
const PENDING_MS = 8000;

function readJson(key) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: the seat lasts for this page only
  }
}

function readText(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function trickPause() {
  const chosen = Number(readText("tricktaker.trickPauseMs"));
  return Number.isFinite(chosen) && chosen >= 0 && readText("tricktaker.trickPauseMs") !== null ? chosen : DEFAULT_TRICK_PAUSE_MS;
}

/** Mount the table of `tableId` into `root`; answers the unmount function. */
export function mountTable(root, { tableId, token = null, spectator = false } = {}) {
  const seatKey = `tricktaker.seat.${tableId}`;
  const stored = readJson(seatKey);
  let myToken = spectator ? null : token ?? stored?.token ?? null;
  if (myToken && token && stored?.token !== token) writeJson(seatKey, { seat: null, token });
  const hostToken = readText(`tricktaker.host.${tableId}`);

  if (!document.querySelector("link[data-tricktaker-table]")) {
    const link = h("link", { rel: "stylesheet", href: new URL("./table.css", import.meta.url).href, "data-tricktaker-table": "" });
    document.head.append(link);
  }

  const state = {
    table: null,
    seat: null,
    view: null,
    present: null,
    queue: [],
    holding: false,
    holdTimer: null,
    lastTrick: null,
    showTrick: null,
    reviewing: false,
    error: "",
    connection: "connecting",
    tab: "table",
    fourColour: fourColourChosen(),
    actedAt: 0,
    myTurn: false,
  };

  // The page's skeleton: built once; each part is redrawn from the state.
  const where = h("div", { class: "tt-where" });
  const title = h("h1", { class: "tt-title" }, "Table");
  const scoreTab = h("button", { type: "button", class: "tt-tab", "aria-pressed": "false" }, "Scorecard");
  const lastTrickButton = h("button", { type: "button", class: "tt-tab", disabled: true }, "Last trick");
  const fourBox = h("input", { type: "checkbox", id: `tt-four-${tableId}` });
  fourBox.checked = state.fourColour;
  const tools = h(
    "div",
    { class: "tt-tools" },
    scoreTab,
    lastTrickButton,
    h("label", { class: "tt-four", for: `tt-four-${tableId}` }, fourBox, " four-colour deck"),
  );
  const connection = h("p", { class: "tt-connection", role: "status" });
  const waiting = h("section", { class: "tt-waiting", "aria-label": "before the game" });
  // The other players around the table, clockwise from your left: on your left, across
  // the table, on your right.
  const leftSeats = h("div", { class: "tt-others tt-left" });
  const topSeats = h("div", { class: "tt-others tt-across" });
  const rightSeats = h("div", { class: "tt-others tt-right" });
  const trick = h("section", { class: "tt-trick", "aria-label": "cards on the table" });
  const panel = h("section", { class: "tt-panel", "aria-label": "this hand" });
  const mine = h("div", { class: "tt-mine" });
  const prompt = h("p", { class: "tt-prompt", "aria-live": "polite" });
  const errorLine = h("p", { class: "tt-error", role: "alert" });
  const controls = h("div", { class: "tt-controls" });
  const hand = h("div", { class: "tt-hand" });
  const moveInput = h("input", {
    type: "text",
    class: "tt-move",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    placeholder: "a card (QD), a bid, or ?",
    "aria-label": "Type a card like QD, or a bid number, then Enter",
  });
  const moveForm = h("form", { class: "tt-type" }, moveInput, h("button", { type: "submit" }, "Play"));
  const helpLine = h("p", { class: "tt-note tt-help", "aria-live": "polite" });
  const over = h("section", { class: "tt-over", "aria-label": "the game is over" });
  const scoreSection = h("section", { class: "tt-score", hidden: true, "aria-label": "scorecard" });
  const log = h("ol", { class: "tt-log", "aria-label": "what happened", "aria-live": "polite" });
  const chatList = h("ol", { class: "tt-chat-lines", "aria-label": "the chat so far" });
  const chatInput = h("input", { type: "text", maxlength: "500", "aria-label": "Chat message", placeholder: "say something" });
  const chatForm = h("form", { class: "tt-chat-form" }, chatInput, h("button", { type: "submit" }, "Send"));
  const presence = h("p", { class: "tt-presence", "aria-label": "who is here" });

  const page = h(
    "div",
    { class: "tt-page", "aria-label": "card table" },
    h("header", { class: "tt-top" }, title, where, tools),
    connection,
    waiting,
    over,
    scoreSection,
    h(
      "div",
      { class: "tt-layout" },
      h(
        "div",
        { class: "tt-main" },
        h("div", { class: "tt-felt" }, leftSeats, topSeats, rightSeats, trick),
        h("section", { class: "tt-me", "aria-label": "your seat" }, mine, prompt, errorLine, controls, hand, moveForm, helpLine),
        panel,
      ),
      h(
        "aside",
        { class: "tt-side" },
        h("h2", {}, "Play by play"),
        log,
        h("h2", {}, "Chat"),
        chatList,
        chatForm,
        presence,
      ),
    ),
  );
  root.replaceChildren(page);

  // --- acting ---------------------------------------------------------------
  function act(action) {
    if (state.seat === null) {
      showError("You are watching: only the players at the table can play.");
      return;
    }
    // One choice at a time: a second tap before the server answered the first is not
    // sent (unless the answer is long overdue).
    if (pending.size && Date.now() - state.actedAt < PENDING_MS) return;
    state.error = "";
    errorLine.textContent = "";
    helpLine.textContent = "";
    state.actedAt = Date.now();
    pending.add(socket.act(action));
    page.dataset.pending = "1";
  }

  function showError(text) {
    state.error = text;
    errorLine.textContent = text;
  }

  const ctx = () => ({
    table: state.table,
    seat: state.seat,
    view: state.view,
    present: state.present,
    showTrick: state.showTrick,
    fourColour: state.fourColour,
    onAct: act,
    onNote: (text) => showError(text),
  });

  // --- host controls (before the game and after it) --------------------------
  async function hostCall(method, path, body) {
    let reply;
    try {
      reply = await fetch(`/tables/${encodeURIComponent(tableId)}${path}`, {
        method,
        headers: { Authorization: `Bearer ${hostToken}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      showError("The server cannot be reached: try again in a moment.");
      return;
    }
    if (!reply.ok) {
      let detail = `${reply.status}`;
      try {
        const problem = await reply.json();
        detail = problem.detail || problem.title || detail;
      } catch {
        // not JSON: the status says it
      }
      showError(detail);
    }
  }

  function renderWaiting() {
    const table = state.table;
    if (!table || table.status !== "waiting") {
      waiting.replaceChildren();
      waiting.hidden = true;
      return;
    }
    waiting.hidden = false;
    const list = h("ul", { class: "tt-seat-list" });
    table.seats.forEach((info, i) => {
      const item = h("li", {}, `${seatName(table, i)}${i === state.seat ? " (you)" : ""}: ${seatStateText(info)}`);
      if (hostToken && info.state === "free") {
        item.append(" ", h("button", { type: "button", class: "tt-act", onclick: () => hostCall("PUT", `/seats/${i}/bot`, { bot: "easy" }) }, "Seat a bot"));
      }
      list.append(item);
    });
    const parts = [h("h2", {}, "Waiting for the players"), list];
    if (hostToken) {
      // The invite page shows the link to send (when this browser made the table) and the seats.
      parts.push(h("p", {}, h("a", { href: `#/invite/${encodeURIComponent(tableId)}`, class: "tt-invite" }, "The invite link to send")));
      parts.push(h("button", { type: "button", class: "tt-act tt-start", onclick: () => hostCall("POST", "/start") }, "Start the game"));
    } else {
      parts.push(h("p", {}, "The host starts the game when every seat is taken."));
    }
    waiting.replaceChildren(...parts);
  }

  function renderOver() {
    const view = state.view;
    const finished = view && view.phase === "game_over";
    over.hidden = !finished;
    if (!finished) {
      over.replaceChildren();
      return;
    }
    const table = state.table;
    const order = [...view.scores.keys()].sort((a, b) => view.scores[b] - view.scores[a]);
    const game = table?.game_number ?? 1;
    const id = encodeURIComponent(tableId);
    const parts = [
      h("h2", {}, "The game is over"),
      h(view.cooperative ? "ul" : "ol", { class: "tt-final" }, ...order.map((s) => h("li", {}, `${seatName(table, s)}: ${view.scores[s]}`))),
      h(
        "p",
        {},
        h("a", { href: `#/replay/${id}?game=${game}`, class: "tt-replay" }, "Replay this game"),
        " \u00b7 ",
        h("a", { href: `/tables/${id}/record?game=${game}`, download: `${tableId}-game${game}.json`, class: "tt-record" }, "Download the record"),
      ),
    ];
    if (hostToken) {
      parts.push(h("button", { type: "button", class: "tt-act", onclick: () => hostCall("POST", "/rematch") }, "Rematch"));
    }
    over.replaceChildren(...parts);
  }

  function renderScore() {
    scoreTab.setAttribute("aria-pressed", state.tab === "score" ? "true" : "false");
    scoreSection.hidden = state.tab !== "score";
    if (state.tab !== "score") return;
    const card = state.present?.scorecard;
    if (card) renderScorecard(scoreSection, card);
    else scoreSection.replaceChildren(h("p", {}, "The scorecard fills in as hands are played."));
  }

  function renderPrompt() {
    const view = state.view;
    if (!view || state.seat === null) {
      prompt.textContent = state.seat === null && state.table ? "You are watching this table." : "";
      return;
    }
    const legal = view.legal_actions ?? [];
    if (legal.length) {
      const { cardVerbs } = groupActions(legal, view.hand);
      const only = legal[0].includes(" ") ? `${legal[0].split(" ")[0].replace(/_/g, " ")} ${actionLabel(legal[0])}` : actionLabel(legal[0]);
      prompt.textContent = legal.length === 1 ? `Your turn (Enter: ${only}).` : cardVerbs.has("play") ? "Your turn: play a card." : "Your turn.";
    } else if (view.to_act?.length) {
      prompt.textContent = `Waiting for ${view.to_act.map((s) => seatName(state.table, s)).join(", ")}.`;
    } else {
      prompt.textContent = "";
    }
  }

  function render() {
    const c = ctx();
    page.dataset.phase = state.view?.phase ?? state.table?.status ?? "";
    page.dataset.hand = String(state.view?.hand_number ?? "");
    const game = state.table?.ruleset?.name ?? state.table?.game ?? "Table";
    title.textContent = game;
    where.replaceChildren(...renderWhere(c));
    connection.textContent =
      state.connection === "open" ? "" : state.connection === "connecting" ? "Connecting\u2026" : "Connection lost: reconnecting\u2026";
    connection.hidden = state.connection === "open";
    renderWaiting();
    const players = state.table?.players ?? state.view?.players ?? 0;
    const mySeat = state.seat;
    const order = [];
    for (let k = 1; k <= players; k += 1) {
      const s = ((mySeat ?? -1) + k + players) % players;
      if (s !== mySeat) order.push(s);
    }
    if (mySeat === null) order.sort((a, b) => a - b);
    const boxes = order.map((s) => renderSeat(c, s));
    const left = boxes.length >= 2 ? [boxes[0]] : [];
    const right = boxes.length >= 2 ? [boxes.at(-1)] : [];
    leftSeats.replaceChildren(...left);
    topSeats.replaceChildren(...boxes.slice(left.length, boxes.length - right.length));
    rightSeats.replaceChildren(...right);
    mine.replaceChildren(mySeat !== null && players ? renderSeat(c, mySeat) : h("span"));
    trick.replaceChildren(...renderTrick(c));
    panel.replaceChildren(...renderPanel(c));
    controls.replaceChildren(...renderControls(c));
    hand.replaceChildren(...renderHand(c));
    moveForm.hidden = mySeat === null || !state.view || state.view.phase === "game_over";
    lastTrickButton.disabled = !state.lastTrick;
    lastTrickButton.setAttribute("aria-pressed", state.reviewing ? "true" : "false");
    renderPrompt();
    const myTurn = (state.view?.legal_actions ?? []).length > 0;
    if (myTurn && !state.myTurn && window.matchMedia("(max-width: 480px)").matches) {
      // On a phone, bring your cards and choices into view when it is your turn.
      hand.scrollIntoView({ block: "nearest" });
    }
    state.myTurn = myTurn;
    errorLine.textContent = state.error;
    renderOver();
    renderScore();
    presence.replaceChildren(...renderPresence(state.table));
  }

  // --- the log and the chat ---------------------------------------------------
  function addLog(lines) {
    for (const line of lines) {
      const text = typeof line === "string" ? line : line.text;
      if (!text) continue;
      const bold = typeof line === "object" && line.bold;
      const item = h("li", { class: typeof line === "object" && line.kind ? `log-${line.kind}${bold ? " bold" : ""}` : "" }, text);
      log.append(item);
    }
    while (log.children.length > LOG_LINES) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  function addChat(line) {
    chatList.append(h("li", {}, h("b", {}, `${line.name}: `), line.text));
    while (chatList.children.length > LOG_LINES) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  // --- messages ---------------------------------------------------------------
  const pending = new Set();
  function settle(id) {
    if (id) pending.delete(id);
    if (!pending.size) delete page.dataset.pending;
  }

  function finishedTrick(previous, event) {
    const view = event.view;
    const told = (view.present?.narration ?? []).filter((line) => line.kind === "trick" && Array.isArray(line.cards));
    if (told.length) return { cards: told.at(-1).cards, winner: told.at(-1).seat ?? null };
    const result = event.hand_result;
    if (result && Array.isArray(result.trick_cards) && result.trick_cards.length) {
      return { cards: result.trick_cards.at(-1), winner: result.trick_winners?.at(-1) ?? null };
    }
    const before = previous && previous.hand_number === view.hand_number ? previous.tricks?.length ?? 0 : 0;
    if ((view.tricks?.length ?? 0) > before && view.tricks.length) {
      return { cards: view.tricks.at(-1), winner: view.trick_winners?.at(-1) ?? null };
    }
    return null;
  }

  function takePresent(view) {
    const present = view?.present;
    if (!present) return;
    const card = present.scorecard ?? state.present?.scorecard ?? null;
    state.present = { ...present, scorecard: card };
  }

  function applyEvent(event) {
    const previous = state.view;
    state.reviewing = false; // the game moved on: back to the cards on the table
    state.view = { ...event.view, history: previous?.history };
    takePresent(event.view);
    addLog(event.view.present?.narration ?? []);
    const done = finishedTrick(previous, event);
    if (done) {
      state.lastTrick = { ...done, review: true };
      return done;
    }
    return null;
  }

  function pump() {
    while (!state.holding && state.queue.length) {
      const event = state.queue.shift();
      const done = applyEvent(event);
      if (done) {
        const pause = trickPause();
        if (pause > 0) {
          state.holding = true;
          state.showTrick = done;
          render();
          state.holdTimer = setTimeout(() => {
            state.holding = false;
            state.showTrick = state.reviewing ? state.lastTrick : null;
            pump();
          }, pause);
          return;
        }
      }
    }
    if (!state.holding) state.showTrick = state.reviewing ? state.lastTrick : null;
    render();
  }

  function onMessage(message) {
    switch (message.type) {
      case "welcome": {
        clearTimeout(state.holdTimer);
        state.holding = false;
        state.queue = [];
        state.showTrick = null;
        state.table = message.table;
        state.seat = message.seat ?? null;
        state.view = message.view ?? null;
        state.present = null;
        takePresent(message.view);
        if (myToken && state.seat !== null) writeJson(seatKey, { seat: state.seat, token: myToken });
        const tricks = state.view?.tricks ?? [];
        state.lastTrick = tricks.length ? { cards: tricks.at(-1), winner: state.view.trick_winners?.at(-1) ?? null, review: true } : null;
        chatList.replaceChildren();
        for (const line of message.chat ?? []) addChat(line);
        render();
        break;
      }
      case "event":
        state.queue.push(message);
        pump();
        break;
      case "presence":
        if (state.table?.seats?.[message.seat]) {
          state.table.seats[message.seat].state = message.state;
          presence.replaceChildren(...renderPresence(state.table));
          if (!state.holding) render();
        }
        break;
      case "table":
        state.table = message.table;
        render();
        break;
      case "chat":
        addChat(message.line);
        break;
      case "ack":
        settle(message.id);
        break;
      case "error":
        settle(message.id);
        if (message.code === "unauthorized" && myToken) {
          // The token was refused (the seat was given up or given to a bot): forget
          // it and watch the table.
          myToken = null;
          state.seat = null;
          try {
            localStorage.removeItem(seatKey);
          } catch {
            // no storage: nothing to forget
          }
          socket.dropToken();
          showError(`${message.message} You are watching this table as a spectator.`);
          socket.socket?.close();
          render();
          break;
        }
        if (message.code === "not_found") {
          socket.close();
          showError(`${message.message}`);
          waiting.hidden = false;
          waiting.replaceChildren(h("p", {}, "There is no such table. ", h("a", { href: "#/" }, "Back to the lobby")));
          break;
        }
        showError(message.rule ? `${message.message} (${message.rule})` : message.message);
        break;
      default:
        break;
    }
  }

  function onState(text) {
    state.connection = text;
    if (text !== "stopped") {
      connection.textContent =
        text === "open" ? "" : text === "connecting" ? "Connecting\u2026" : "Connection lost: reconnecting\u2026";
      connection.hidden = text === "open";
    }
  }

  const socket = new TableSocket(tableId, myToken, onMessage, onState);

  // --- input ------------------------------------------------------------------
  moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const view = state.view;
    const legal = view?.legal_actions ?? [];
    const typed = moveInput.value;
    if (typed.trim() === "?") {
      moveInput.value = "";
      helpLine.textContent = legal.length ? `You may: ${legal.join(", ")}.` : "It is not your turn.";
      return;
    }
    if (!typed.trim()) {
      if (legal.length === 1) act(legal[0]);
      else showError(legal.length ? "Type a card like QD, or a bid number." : "It is not your turn.");
      return;
    }
    const { cardVerbs } = groupActions(legal, view?.hand);
    const verb = cardVerbs.size ? [...cardVerbs.keys()][0] : view?.phase === "playing" ? "play" : null;
    const action = readTyped(typed, legal, view?.hand, verb);
    if (action) {
      moveInput.value = "";
      act(action);
    } else {
      showError(`"${typed}" is not a card in your hand or a choice now${legal.length ? `: you may ${legal.slice(0, 8).join(", ")}${legal.length > 8 ? "\u2026" : ""}` : ""}.`);
    }
  });

  function onKey(event) {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
    if (typing || event.ctrlKey || event.metaKey || event.altKey || !state.view || state.seat === null) return;
    if (event.key === "Enter" && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement)) {
      const legal = state.view.legal_actions ?? [];
      if (legal.length === 1) {
        event.preventDefault();
        act(legal[0]);
      }
      return;
    }
    if (event.key.length === 1 && /[0-9a-z]/i.test(event.key)) {
      moveInput.focus();
    }
  }
  document.addEventListener("keydown", onKey);

  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (socket.chat(text.slice(0, 500))) chatInput.value = "";
  });

  scoreTab.addEventListener("click", () => {
    state.tab = state.tab === "score" ? "table" : "score";
    renderScore();
    if (state.tab === "score") scoreSection.scrollIntoView({ block: "nearest" });
  });
  lastTrickButton.addEventListener("click", () => {
    state.reviewing = !state.reviewing;
    if (!state.holding) state.showTrick = state.reviewing ? state.lastTrick : null;
    render();
  });
  fourBox.addEventListener("change", () => {
    state.fourColour = fourBox.checked;
    chooseFourColour(fourBox.checked);
    render();
  });

  render();
  return () => {
    clearTimeout(state.holdTimer);
    document.removeEventListener("keydown", onKey);
    socket.close();
    root.replaceChildren();
  };
}
