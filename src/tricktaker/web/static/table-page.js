// @ts-check
// The card table's page (table.js): its skeleton, built once, every part of it named so
// that table.js redraws each from the table's state. Nothing here listens or draws from
// the state: the elements are made empty (or with their fixed labels) and placed.

import { el as h } from "./dom.js";
import { soundOn } from "./table-theme.js";

/**
 * The table page's elements, placed in one another: `page` holds them all.
 * @param {string} tableId
 * @param {{fourColour: boolean, hint: {button: HTMLElement, panel: HTMLElement, badge: HTMLElement}}} options
 *   the deck's colours chosen in this browser, and the coach's hint controls (its button
 *   goes beside the choices, its panel under them, its badge by the title)
 */
export function tablePage(tableId, { fourColour, hint }) {
  const where = h("div", { class: "tt-where" });
  const title = h("h1", { class: "tt-title" }, "Table");
  const scoreTab = h("button", { type: "button", class: "tt-tab", "aria-pressed": "false" }, "Scorecard");
  const lastTrickButton = h("button", { type: "button", class: "tt-tab", disabled: true }, "Last trick");
  const drawerButton = h("button", { type: "button", class: "tt-tab tt-drawer-toggle", "aria-expanded": "false", "aria-controls": `tt-side-${tableId}` }, "Log & chat");
  const soundBox = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: `tt-sound-${tableId}` }));
  soundBox.checked = soundOn();
  const fourBox = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: `tt-four-${tableId}` }));
  fourBox.checked = fourColour;
  const tools = h(
    "div",
    { class: "tt-tools" },
    scoreTab,
    lastTrickButton,
    drawerButton,
    h("label", { class: "tt-switch", for: `tt-four-${tableId}` }, fourBox, " four-colour deck"),
    h("label", { class: "tt-switch", for: `tt-sound-${tableId}` }, soundBox, " sound"),
  );
  const connection = h("p", { class: "tt-connection", role: "status" });
  const waiting = h("section", { class: "tt-waiting", "aria-label": "before the game" });
  const ring = h("div", { class: "tt-ring" });
  const trick = h("section", { class: "tt-trick", "aria-label": "cards on the table" });
  const felt = h("div", { class: "tt-felt" }, h("div", { class: "tt-oval", "aria-hidden": "true" }), trick, ring);
  const panel = h("section", { class: "tt-panel", "aria-label": "this hand" });
  const mine = h("div", { class: "tt-mine" });
  const turnLine = h("p", { class: "tt-turn" });
  const bidsLine = h("p", { class: "tt-bids-line", "aria-label": "bids against tricks" });
  const prompt = h("p", { class: "tt-prompt" });
  const errorLine = h("p", { class: "tt-error", role: "alert" });
  const controls = h("div", { class: "tt-controls" });
  const hand = h("div", { class: "tt-hand" });
  const moveInput = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "text",
      class: "tt-move",
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      placeholder: "a card (QD), a bid, or ?",
      "aria-label": "Type a card like QD, or a bid number, then Enter",
    })
  );
  const moveForm = h("form", { class: "tt-type" }, moveInput, h("button", { type: "submit" }, "Play"));
  const helpLine = h("p", { class: "tt-note tt-help", "aria-live": "polite" });
  const over = h("section", { class: "tt-over", "aria-label": "the game is over", tabindex: "-1" });
  const scoreClose = h("button", { type: "button", class: "tt-tab tt-close" }, "Close");
  const scoreBody = h("div", { class: "tt-score-body" });
  const scoreSection = h("section", { class: "tt-score", hidden: true, "aria-label": "scorecard" }, scoreClose, scoreBody);
  // The play by play and the chat scroll: each takes the focus, so that the keyboard
  // scrolls them too.
  const log = h("ol", { class: "tt-log", "aria-label": "what happened", tabindex: "0" });
  const chatList = h("ol", { class: "tt-chat-lines", "aria-label": "the chat so far", tabindex: "0" });
  const chatInput = /** @type {HTMLInputElement} */ (h("input", { type: "text", maxlength: "500", "aria-label": "Chat message", placeholder: "say something" }));
  const chatForm = h("form", { class: "tt-chat-form" }, chatInput, h("button", { type: "submit" }, "Send"));
  const presence = h("p", { class: "tt-presence", "aria-label": "who is here" });
  const logTab = h("button", { type: "button", class: "tt-side-tab", "aria-pressed": "true" }, "Play by play");
  const chatTab = h("button", { type: "button", class: "tt-side-tab", "aria-pressed": "false" }, "Chat");
  const sideClose = h("button", { type: "button", class: "tt-tab tt-close tt-side-close" }, "Close");
  const side = h(
    "aside",
    { class: "tt-side", id: `tt-side-${tableId}`, "aria-label": "play by play and chat", dataset: { tab: "log" } },
    h("div", { class: "tt-side-tabs" }, logTab, chatTab, sideClose),
    h("section", { class: "tt-side-log", "aria-label": "play by play" }, h("h2", {}, "Play by play"), log),
    h("section", { class: "tt-side-chat", "aria-label": "chat" }, h("h2", {}, "Chat"), chatList, chatForm),
    presence,
  );
  const live = h("div", { class: "offscreen tt-live", role: "status", "aria-live": "polite" });
  const undoButton = h("button", { type: "button", class: "tt-act tt-undo", "aria-keyshortcuts": "Control+Z", title: "Take back your last card or bid (Ctrl+Z)" }, "\u21b6 Undo");

  const me = h(
    "section",
    { class: "tt-me", "aria-label": "your seat" },
    h("div", { class: "tt-bar" }, mine, h("div", { class: "tt-lines" }, turnLine, bidsLine, hint.button, undoButton)),
    prompt,
    errorLine,
    controls,
    hint.panel,
    hand,
    moveForm,
    helpLine,
  );
  const page = h(
    "div",
    { class: "tt-page", "aria-label": "card table" },
    h("header", { class: "tt-top" }, title, hint.badge, where, tools),
    connection,
    waiting,
    over,
    scoreSection,
    h("div", { class: "tt-layout" }, h("div", { class: "tt-main" }, felt, me, panel), side),
    live,
  );
  return {
    where,
    title,
    scoreTab,
    lastTrickButton,
    drawerButton,
    soundBox,
    fourBox,
    connection,
    waiting,
    ring,
    trick,
    felt,
    panel,
    mine,
    turnLine,
    bidsLine,
    prompt,
    errorLine,
    controls,
    hand,
    moveInput,
    moveForm,
    helpLine,
    over,
    scoreClose,
    scoreBody,
    scoreSection,
    log,
    chatList,
    chatInput,
    chatForm,
    presence,
    logTab,
    chatTab,
    sideClose,
    side,
    live,
    undoButton,
    me,
    page,
  };
}
