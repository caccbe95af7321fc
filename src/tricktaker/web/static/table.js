// @ts-check
// The card table: mountTable(root, {tableId, token, spectator}) plays one seat of a
// table (or watches it) over the table's WebSocket (docs/protocol.md) and answers a
// function that unmounts it (closes the socket, stops the timers).
//
// The seat token is kept in this browser (storage.js, `seat.<tableId>`), so a reload,
// or another device given the token, takes the same seat back. Every choice offered
// comes from the server's legal_actions; anything else a person tries is sent and the
// server's refusal (which names the rule) is shown.
//
// Events are applied one at a time from a queue: a finished trick stays in view for a
// moment (then slides to its winner), and a finished hand opens the hand result, which
// stays until the player moves on; what happens meanwhile waits in the queue.

import { csrfHeaders } from "./account-session.js";
import { chooseFourColour, cardsInText, fourColourChosen } from "./cards.js";
import { renderScorecard } from "./scorecard.js";
import { el as h } from "./dom.js";
import { readJson, readText, writeJson, forget } from "./storage.js";
import { actionLabel, groupActions, readTyped } from "./table-actions.js";
import { flyNewCards, places, sweepTrick } from "./table-anim.js";
import { keepFocus, layoutHand, renderHand } from "./table-hand.js";
import { hintControls } from "./table-hint.js";
import { finishedTrick, renderControls, renderPanel, renderPresence, renderTrick, renderWhere } from "./table-render.js";
import { handResultParts, openDialog, overParts } from "./table-result.js";
import { onEllipse, renderSeat, seatAngle, seatName, SEAT_COLOURS, waitingParts } from "./table-seats.js";
import { TableSocket } from "./table-socket.js";
import { tablePage } from "./table-page.js";
import { beep, chooseSound } from "./table-theme.js";

/** @typedef {Record<string, any>} Json */

const DEFAULT_TRICK_PAUSE_MS = 1500;
const DEFAULT_RESULT_PAUSE_MS = 4000;
const LOG_LINES = 200;
const PENDING_MS = 8000;

/**
 * A pause chosen in this browser (milliseconds), or its default.
 * @param {string} name
 * @param {number} fallback
 */
function pauseOf(name, fallback) {
  const text = readText(name);
  const chosen = Number(text);
  return text !== null && Number.isFinite(chosen) && chosen >= 0 ? chosen : fallback;
}

/**
 * What the phase asks of the seat to act, for the turn line ("Ann to play").
 * @param {string | undefined} phase
 */
function phaseVerb(phase) {
  if (phase === "playing") return "play";
  if (phase === "bidding" || phase === "auction") return "bid";
  return "choose";
}

/**
 * Mount the table of `tableId` into `root`; answers the unmount function.
 * @param {HTMLElement} root
 * @param {{tableId: string, token?: string | null, spectator?: boolean}} options
 * @returns {() => void}
 */
export function mountTable(root, { tableId, token = null, spectator = false }) {
  const seatKey = `seat.${tableId}`;
  const stored = readJson(seatKey, null);
  /** @type {string | null} */
  let myToken = spectator ? null : token ?? stored?.token ?? null;
  if (myToken && token && stored?.token !== token) writeJson(seatKey, { seat: null, token });
  const hostToken = readText(`host.${tableId}`);

  if (!document.querySelector("link[data-tricktaker-table]")) {
    const link = h("link", { rel: "stylesheet", href: new URL("./table.css", import.meta.url).href, "data-tricktaker-table": "" });
    document.head.append(link);
  }

  const state = {
    /** @type {Json | null} */ table: null,
    /** @type {number | null} */ seat: null,
    /** @type {Json | null} */ view: null,
    /** @type {Json | null} */ present: null,
    /** @type {Json[]} */ queue: [],
    holding: false,
    /** @type {ReturnType<typeof setTimeout> | undefined} */ holdTimer: undefined,
    /** @type {Json | null} */ lastTrick: null,
    /** @type {Json | null} */ showTrick: null,
    reviewing: false,
    error: "",
    connection: "connecting",
    scoreOpen: false,
    drawer: false,
    sideTab: "log",
    fourColour: fourColourChosen(),
    actedAt: 0,
    myTurn: false,
    /** @type {{node: HTMLElement, close: () => void} | null} */ dialog: null,
    /** @type {ReturnType<typeof setTimeout> | undefined} */ dialogTimer: undefined,
    /** @type {number | null} */ gameNumber: null,
    /** @type {number | null} */ awaitSeq: null,
    /** @type {number | null} */ shownSeq: null,
  };

  // --- the page's skeleton (table-page.js): built once; each part is redrawn from the state
  // The coach's hint (protocol 1.4): the button beside your choices, its panel under them.
  const hint = hintControls({
    ask: () => {
      if (state.seat === null) return null;
      clearNotes();
      const id = `h-${Date.now().toString(36)}`;
      if (socket.raw({ type: "hint", id })) return id;
      showError("Not connected: try again in a moment.");
      return null;
    },
    play: (action) => act(action),
    announce: (text) => announce(text),
  });
  const {
    where, title, scoreTab, lastTrickButton, drawerButton, soundBox, fourBox, connection, waiting, ring,
    trick, felt, panel, mine, turnLine, bidsLine, prompt, errorLine, controls, hand, moveInput,
    moveForm, helpLine, over, scoreClose, scoreBody, scoreSection, log, chatList, chatInput, chatForm,
    presence, logTab, chatTab, sideClose, side, live, undoButton, me, page,
  } = tablePage(tableId, { fourColour: state.fourColour, hint });
  root.replaceChildren(page);
  root.classList.add("tt-root");

  /** What the hand and the choices were last drawn from. */
  const drawn = { hand: "", controls: "" };

  // --- saying things ---------------------------------------------------------------
  /** @param {string} text */
  function announce(text) {
    if (!text) return;
    live.textContent = "";
    requestAnimationFrame(() => {
      live.textContent = text;
    });
  }

  /** @param {string} text */
  function showError(text) {
    state.error = text;
    errorLine.textContent = text;
    if (text) announce(text);
  }

  function clearNotes() {
    state.error = "";
    errorLine.textContent = "";
    helpLine.textContent = "";
  }

  // --- acting ---------------------------------------------------------------------
  /** @type {Set<string>} */
  const pending = new Set();

  /** @param {string} action */
  function act(action) {
    if (state.seat === null) {
      showError("You are watching: only the players at the table can play.");
      return;
    }
    // One choice at a time: a second tap before the server answered the first is not
    // sent (unless the answer is long overdue).
    if (pending.size && Date.now() - state.actedAt < PENDING_MS) return;
    clearNotes();
    state.actedAt = Date.now();
    pending.add(socket.act(action));
    page.dataset.pending = "1";
    render();
  }

  /** Ask the server to take back this seat's last action: offered (a button) at a
   * practice table only; Ctrl+Z asks anywhere, and the server's refusal says why. */
  function undo() {
    if (state.seat === null) return;
    clearNotes();
    const id = socket.undo();
    if (id) {
      pending.add(id);
      page.dataset.pending = "1";
    } else {
      showError("Not connected: try again in a moment.");
    }
  }

  /** The view as the page shows it: while a finished trick or a hand result is held in
   * view, the choices that come after it are not offered yet. */
  const shownView = () => (state.view && (state.holding || awaiting()) ? { ...state.view, legal_actions: [] } : state.view);

  /** Whether this seat's action was sent and its event is not shown yet: the choices it
   * answered are not offered again meanwhile. */
  const awaiting = () => pending.size > 0 || (state.awaitSeq !== null && (state.shownSeq ?? 0) < state.awaitSeq);

  const ctx = () => ({
    table: state.table,
    seat: state.seat,
    view: shownView(),
    present: state.present,
    showTrick: state.showTrick,
    fourColour: state.fourColour,
    onAct: act,
    onNote: (/** @type {string} */ text) => showError(text),
  });

  // --- host controls (before the game and after it) --------------------------------
  /**
   * @param {string} method
   * @param {string} path
   * @param {Json} [body]
   */
  async function hostCall(method, path, body) {
    let reply;
    try {
      reply = await fetch(`/tables/${encodeURIComponent(tableId)}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${hostToken}`,
          "Content-Type": "application/json",
          ...csrfHeaders(), // a signed-in browser's cookie needs its CSRF token
        },
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

  /** The seats before the game (with the host's controls), or nothing once it began. */
  function renderWaiting() {
    const table = state.table;
    waiting.hidden = !table || table.status !== "waiting";
    waiting.replaceChildren(...(table && !waiting.hidden ? waitingParts({ table, seat: state.seat, tableId, host: Boolean(hostToken), hostCall }) : []));
  }

  /** The game's end: the standings, the winner celebrated, rematch, replay, record. */
  function renderOver() {
    const view = state.view;
    const finished = Boolean(view && view.phase === "game_over");
    over.hidden = !finished || state.dialog !== null;
    const parts = finished ? overParts({ table: state.table, view, present: state.present, tableId, host: Boolean(hostToken), hostCall }) : [];
    over.replaceChildren(...parts);
  }

  function renderScore() {
    scoreTab.setAttribute("aria-pressed", state.scoreOpen ? "true" : "false");
    scoreSection.hidden = !state.scoreOpen;
    if (!state.scoreOpen) return;
    const card = state.present?.scorecard;
    if (card) renderScorecard(scoreBody, card);
    else scoreBody.replaceChildren(h("p", {}, "The scorecard fills in as hands are played."));
  }

  function renderSide() {
    side.dataset.tab = state.sideTab;
    side.classList.toggle("open", state.drawer);
    drawerButton.setAttribute("aria-expanded", state.drawer ? "true" : "false");
    logTab.setAttribute("aria-pressed", state.sideTab === "log" ? "true" : "false");
    chatTab.setAttribute("aria-pressed", state.sideTab === "chat" ? "true" : "false");
  }

  /** The turn line ("Your turn", "Ann to play") and the prompt under it. */
  function renderTurn() {
    const view = shownView();
    const table = state.table;
    turnLine.replaceChildren();
    prompt.textContent = "";
    if (state.seat === null && table) prompt.textContent = "You are watching this table.";
    if (!view || view.phase === "game_over") return;
    const legal = view.legal_actions ?? [];
    const toAct = view.to_act ?? [];
    if (legal.length && state.seat !== null) {
      turnLine.append(h("span", { class: "tt-turn-dot", style: `background: ${SEAT_COLOURS[state.seat % SEAT_COLOURS.length]}` }), "Your turn");
      turnLine.classList.add("mine");
      const { cardVerbs } = groupActions(legal, view.hand);
      const only = legal[0].includes(" ") ? `${legal[0].split(" ")[0].replace(/_/g, " ")} ${actionLabel(legal[0])}` : actionLabel(legal[0]);
      prompt.textContent = legal.length === 1 ? `Enter: ${only}.` : cardVerbs.has("play") ? "Play a card." : "";
      return;
    }
    turnLine.classList.remove("mine");
    if (toAct.length) {
      const names = toAct.map((/** @type {number} */ s) => seatName(table, s, state.present));
      const dot = toAct.length === 1 ? h("span", { class: "tt-turn-dot", style: `background: ${SEAT_COLOURS[toAct[0] % SEAT_COLOURS.length]}` }) : null;
      turnLine.append(...[dot, `${names.join(", ")} to ${phaseVerb(view.phase)}`].filter((x) => x !== null));
      if (state.seat !== null && !prompt.textContent) prompt.textContent = `Waiting for ${names.join(", ")}.`;
    }
  }

  /** The players around the oval: every seat but yours (yours sits under the felt). */
  function renderRing() {
    const c = ctx();
    const players = state.table?.players ?? state.view?.players ?? 0;
    const boxes = [];
    for (let s = 0; s < players; s += 1) {
      if (s === state.seat) continue;
      const box = renderSeat(c, s);
      const { x, y } = onEllipse(seatAngle(s, players, state.seat), 43, 41);
      box.style.setProperty("--x", `${x.toFixed(1)}%`);
      box.style.setProperty("--y", `${y.toFixed(1)}%`);
      box.classList.add(y < 30 ? "at-top" : y > 70 ? "at-bottom" : x < 50 ? "at-left" : "at-right");
      boxes.push(box);
    }
    ring.replaceChildren(...boxes);
    felt.dataset.players = String(players);
  }

  function renderUndo() {
    // Only at a practice table (every other seat a bot), while the game goes on.
    undoButton.hidden = !(Boolean(state.table?.practice) && state.seat !== null && Boolean(state.view) && state.view?.phase !== "game_over");
  }

  function render() {
    const c = ctx();
    page.dataset.phase = state.view?.phase ?? state.table?.status ?? "";
    page.dataset.hand = String(state.view?.hand_number ?? "");
    page.classList.toggle("watching", state.seat === null);
    const game = state.table?.ruleset?.name ?? state.table?.game ?? "Table";
    title.textContent = game;
    where.replaceChildren(...renderWhere(c));
    connection.textContent = state.connection === "open" ? "" : state.connection === "connecting" ? "Connecting\u2026" : "Connection lost: reconnecting\u2026";
    connection.hidden = state.connection === "open";
    renderWaiting();
    const players = state.table?.players ?? state.view?.players ?? 0;
    renderRing();
    mine.replaceChildren(state.seat !== null && players ? renderSeat(c, state.seat) : h("span"));
    trick.replaceChildren(...renderTrick(c));
    panel.replaceChildren(...renderPanel(c));
    // The hand and the choices are drawn again only when they change, so that a card or
    // a button keeps its place (and the keyboard's focus) while the others play.
    const choiceKey = JSON.stringify([state.seat, c.view?.legal_actions ?? [], state.present?.panel?.hook ?? null, state.view?.hand ?? null]);
    if (choiceKey !== drawn.controls) {
      drawn.controls = choiceKey;
      keepFocus(controls, () => controls.replaceChildren(...renderControls(c)));
    }
    renderUndo();
    const handKey = JSON.stringify([
      choiceKey,
      state.present?.hand ?? null,
      state.view?.cards_in_hand ?? null,
      state.view?.phase ?? null,
      state.fourColour,
    ]);
    if (handKey !== drawn.hand) {
      drawn.hand = handKey;
      keepFocus(hand, () => hand.replaceChildren(...renderHand(c)), true);
      layoutHand(hand);
    }
    const bids = state.present?.panel?.bids ?? null;
    bidsLine.textContent = bids?.text ?? "";
    bidsLine.hidden = !bids?.text || state.view?.phase === "game_over";
    moveForm.hidden = state.seat === null || !state.view || state.view.phase === "game_over";
    lastTrickButton.disabled = !state.lastTrick;
    lastTrickButton.setAttribute("aria-pressed", state.reviewing ? "true" : "false");
    renderTurn();
    const myTurn = (c.view?.legal_actions ?? []).length > 0;
    hint.update({ on: Boolean(state.table?.hints), myTurn: myTurn && state.seat !== null, seq: state.shownSeq, unit: state.present?.scorecard?.unit });
    if (myTurn && !state.myTurn) {
      announce("Your turn.");
      beep("turn");
    }
    state.myTurn = myTurn;
    errorLine.textContent = state.error;
    renderOver();
    renderScore();
    renderSide();
    presence.replaceChildren(...renderPresence(state.table, state.present));
  }

  // --- the log and the chat ---------------------------------------------------------
  /** @param {(string | Json)[]} lines */
  function addLog(lines) {
    const said = [];
    for (const line of lines) {
      const text = typeof line === "string" ? line : line.text;
      if (!text) continue;
      const bold = typeof line === "object" && line.bold;
      const kind = typeof line === "object" && line.kind ? `log-${line.kind}${bold ? " bold" : ""}` : "";
      log.append(h("li", { class: kind }, text));
      said.push(text);
    }
    while (log.children.length > LOG_LINES) log.firstChild?.remove();
    log.scrollTop = log.scrollHeight;
    return said;
  }

  /** @param {Json} line */
  function addChat(line) {
    chatList.append(h("li", {}, h("b", {}, `${line.name}: `), line.text));
    while (chatList.children.length > LOG_LINES) chatList.firstChild?.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  // --- messages ---------------------------------------------------------------------
  /** @param {string | undefined} id */
  /**
   * The server answered an action: an ack names the event's seq (the choices stay hidden
   * until that event is shown), a refusal offers the choices again.
   * @param {string | undefined} id
   * @param {number | null} [seq]
   */
  function settle(id, seq = null) {
    if (id) pending.delete(id);
    if (seq !== null) state.awaitSeq = Math.max(state.awaitSeq ?? 0, seq);
    if (!pending.size) delete page.dataset.pending;
    if (!state.holding) render();
  }

  /** @param {Json | null} view */
  function takePresent(view) {
    const present = view?.present;
    if (!present) return;
    const card = present.scorecard ?? state.present?.scorecard ?? null;
    state.present = { ...present, scorecard: card };
  }

  /** @param {Json} event */
  function applyEvent(event) {
    const previous = state.view;
    if (typeof event.seq === "number") state.shownSeq = event.seq;
    state.reviewing = false; // the game moved on: back to the cards on the table
    state.view = { ...event.view, history: previous?.history };
    takePresent(event.view);
    const said = addLog(event.view.present?.narration ?? []);
    if (said.length) announce(said.join(" "));
    if ((event.view.current_trick?.length ?? 0) > (previous?.current_trick?.length ?? 0)) beep("card");
    const done = finishedTrick(previous, event);
    if (done) state.lastTrick = { ...done, review: true };
    return { done, result: event.hand_result ?? null };
  }

  /** The hand result (and, at the end, the way to the final standings). */
  /** @param {Json} handResult the finished hand, as the event tells it */
  function openResult(handResult) {
    const card = state.present?.scorecard;
    // The sheet's row of the hand just finished (by its number, when the event gives it).
    const number = typeof handResult?.hand === "number" ? handResult.hand : null;
    const rows = card?.rows ?? [];
    const row = number === null ? rows.at(-1) : rows.find((/** @type {Json} */ r) => r.hand === number);
    if (!card || !row) return false;
    const final = state.view?.phase === "game_over";
    const next = h("button", { type: "button", class: "tt-act tt-next" }, final ? "Final standings" : "Next hand");
    const parts = handResultParts(card, row, state.seat);
    const dialog = openDialog({
      title: final ? `Last hand: hand ${row.hand}` : `Hand ${row.hand} result`,
      parts,
      buttons: [next],
      className: "tt-result",
      onClose: () => {
        clearTimeout(state.dialogTimer);
        state.dialog = null;
        state.holding = false;
        pump();
        if (final) over.focus({ preventScroll: false });
      },
    });
    next.addEventListener("click", () => dialog.close());
    state.dialog = dialog;
    state.holding = true;
    page.append(dialog.node);
    next.focus();
    const lines = parts.length > 2 ? parts[2].textContent ?? "" : "";
    announce(`Hand ${row.hand} is over. ${lines}`);
    if (state.seat === null) {
      // A spectator moves on by itself after a few seconds.
      state.dialogTimer = setTimeout(() => dialog.close(), pauseOf("resultPauseMs", DEFAULT_RESULT_PAUSE_MS));
    }
    return true;
  }

  function closeDialog() {
    clearTimeout(state.dialogTimer);
    if (state.dialog) {
      const open = state.dialog;
      state.dialog = null;
      open.node.remove();
    }
  }

  function pump() {
    while (!state.holding && state.queue.length) {
      const before = places(page);
      const event = /** @type {Json} */ (state.queue.shift());
      const { done, result } = applyEvent(event);
      const pause = pauseOf("trickPauseMs", DEFAULT_TRICK_PAUSE_MS);
      if (done && pause > 0) {
        state.holding = true;
        state.showTrick = done;
        render();
        flyNewCards(page, before);
        state.holdTimer = setTimeout(() => {
          sweepTrick(page, done.winner).then(() => {
            if (!state.holding || state.dialog) return;
            state.holding = false;
            state.showTrick = state.reviewing ? state.lastTrick : null;
            if (result && openResult(result)) {
              render();
              return;
            }
            pump();
          });
        }, pause);
        beep("trick");
        return;
      }
      if (result) {
        state.showTrick = state.reviewing ? state.lastTrick : null;
        render();
        flyNewCards(page, before);
        if (openResult(result)) {
          render();
          return;
        }
      }
      if (!state.queue.length) {
        state.showTrick = state.reviewing ? state.lastTrick : null;
        render();
        flyNewCards(page, before);
        return;
      }
    }
    if (!state.holding) state.showTrick = state.reviewing ? state.lastTrick : null;
    render();
  }

  /** @param {Json} message */
  function onMessage(message) {
    switch (message.type) {
      case "welcome": {
        clearTimeout(state.holdTimer);
        closeDialog();
        state.holding = false;
        state.queue = [];
        state.showTrick = null;
        const gameBefore = state.gameNumber;
        state.table = message.table;
        state.seat = message.seat ?? null;
        state.view = message.view ?? null;
        state.present = null;
        state.shownSeq = typeof message.seq === "number" ? message.seq : null;
        state.awaitSeq = null;
        takePresent(message.view);
        if (myToken && state.seat !== null) writeJson(seatKey, { seat: state.seat, token: myToken });
        const tricks = state.view?.tricks ?? [];
        state.lastTrick = tricks.length ? { cards: tricks.at(-1), winner: state.view?.trick_winners?.at(-1) ?? null, review: true } : null;
        chatList.replaceChildren();
        for (const line of message.chat ?? []) addChat(line);
        // The welcome's narration tells what happened up to now (the deal, the bids
        // made before this page was told): the play by play starts from it.
        if (message.table?.game_number !== gameBefore) log.replaceChildren();
        state.gameNumber = message.table?.game_number ?? null;
        addLog(message.view?.present?.narration ?? []);
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
          presence.replaceChildren(...renderPresence(state.table, state.present));
          if (!state.holding) render();
        }
        break;
      case "table":
        state.table = message.table;
        if (!state.holding) render();
        break;
      case "chat":
        addChat(message.line);
        break;
      case "ack":
        settle(message.id, typeof message.seq === "number" ? message.seq : null);
        break;
      case "hint":
        hint.answer(/** @type {import("./table-hint.js").HintMessage} */ (message));
        break;
      case "error":
        if (hint.refused(message.id)) {
          showError(message.message);
          break;
        }
        settle(message.id);
        if (message.code === "unauthorized" && myToken) {
          // The token was refused (the seat was given up or given to a bot): forget
          // it and watch the table.
          myToken = null;
          state.seat = null;
          forget(seatKey);
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
        showError(cardsInText(message.rule ? `${message.message} (${message.rule})` : message.message));
        break;
      default:
        break;
    }
  }

  /** @param {string} text */
  function onState(text) {
    state.connection = text;
    if (text !== "stopped") {
      connection.textContent = text === "open" ? "" : text === "connecting" ? "Connecting\u2026" : "Connection lost: reconnecting\u2026";
      connection.hidden = text === "open";
    }
  }

  const socket = new TableSocket(tableId, myToken, onMessage, onState);

  // --- input --------------------------------------------------------------------------
  moveInput.addEventListener("input", () => {
    if (state.error) clearNotes();
  });
  moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const view = state.view;
    const legal = view?.legal_actions ?? [];
    const typed = moveInput.value;
    if (typed.trim() === "?") {
      moveInput.value = "";
      clearNotes();
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

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (state.dialog) return; // the dialog answers its own keys
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
    if (typing || !state.view || state.seat === null) return;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement)) {
      const legal = state.view.legal_actions ?? [];
      if (legal.length === 1) {
        event.preventDefault();
        act(legal[0]);
      }
      return;
    }
    if (event.key.length === 1 && /[0-9a-z?]/i.test(event.key) && !moveForm.hidden && moveInput.offsetParent !== null) {
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

  undoButton.addEventListener("click", () => undo());
  scoreTab.addEventListener("click", () => {
    state.scoreOpen = !state.scoreOpen;
    renderScore();
    if (state.scoreOpen) scoreSection.scrollIntoView({ block: "nearest" });
  });
  scoreClose.addEventListener("click", () => {
    state.scoreOpen = false;
    renderScore();
    scoreTab.focus();
  });
  drawerButton.addEventListener("click", () => {
    state.drawer = !state.drawer;
    renderSide();
  });
  sideClose.addEventListener("click", () => {
    state.drawer = false;
    renderSide();
    drawerButton.focus();
  });
  logTab.addEventListener("click", () => {
    state.sideTab = "log";
    renderSide();
  });
  chatTab.addEventListener("click", () => {
    state.sideTab = "chat";
    renderSide();
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
  soundBox.addEventListener("change", () => {
    chooseSound(soundBox.checked);
    if (soundBox.checked) beep("turn");
  });
  const resize = new ResizeObserver(() => layoutHand(hand));
  resize.observe(hand);
  // On a wide screen the game's panel (the contract, the pot, the quotas...) sits at the
  // top of the side column, so that the felt and your hand keep the height; on a narrower
  // one it follows your hand.
  const wide = window.matchMedia("(min-width: 900px)");
  const placePanel = () => {
    if (wide.matches) side.insertBefore(panel, side.querySelector(".tt-side-log"));
    else me.after(panel);
  };
  placePanel();
  wide.addEventListener("change", placePanel);

  render();
  return () => {
    clearTimeout(state.holdTimer);
    clearTimeout(state.dialogTimer);
    resize.disconnect();
    wide.removeEventListener("change", placePanel);
    document.removeEventListener("keydown", onKey);
    socket.close();
    root.classList.remove("tt-root");
    root.replaceChildren();
  };
}
