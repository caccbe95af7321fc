// @ts-check
// Entering a hand on the scorekeeper's sheet (scorekeeper.js keeps the sheet): the
// steps one by one with big buttons (the bids the server offers, the trump, each
// player's tricks, a game's own steps as the server describes them), the review, and
// saving or correcting the hand. What may be entered is the server's word.

import { ApiError, api } from "./api.js";
import { append, el } from "./dom.js";
import { SUITS, draftFrom, fillLastTricks, ruleOf, suitWord } from "./scorekeeper-draft.js";
import { newId } from "./scorekeeper-start.js";

/** @typedef {import("./scorekeeper-draft.js").Sheet} Sheet */
/** @typedef {import("./scorekeeper-draft.js").Draft} Draft */
/** @typedef {import("./scorekeeper-draft.js").Next} Next */
/** @typedef {import("./scorekeeper-draft.js").BidOffer} BidOffer */
/** @typedef {import("./scorekeeper-draft.js").Step} Step */
/** @typedef {import("./scorekeeper-draft.js").Row} Row */
/** @typedef {import("./scorekeeper-draft.js").Entry} Entry */
/** @typedef {import("./scorekeeper-draft.js").Call} Call */
/** @typedef {import("./scorekeeper-draft.js").Problem} Problem */
/** @typedef {import("./scorekeeper-draft.js").Change} Change */
/** @typedef {import("./scorekeeper-draft.js").State} State */
/** @typedef {import("./scorekeeper-draft.js").Item} Item */

/**
 * What the entry asks of the page that keeps the sheet.
 * @typedef {object} EntryPage
 * @property {State} S the page's state
 * @property {HTMLElement} root the page
 * @property {string} path the sheet's API path
 * @property {string | null} token this browser's edit token or key
 * @property {() => void} render draw the page again
 * @property {(item: Item) => void} enqueue send an entry (it waits while offline)
 * @property {() => Next | null} nextHand the next hand as far as the page knows it
 * @property {(sheet: Sheet, nxt: Next) => HTMLElement} nextLine the line that names a hand
 */

/**
 * The entry of the page `page`.
 * @param {EntryPage} page
 */
export function entryParts(page) {
  const { S, root, path, render, enqueue, nextHand, nextLine } = page;

  /** @param {Sheet} sheet */
  function entryPanel(sheet) {
    const box = el("section", { class: "panel sk-entry sk-noprint", "aria-label": "Enter a hand" });
    if (S.draft && S.draft.kind === "add" && !S.draft.dirty) S.draft = null; // follow the sheet
    if (!S.draft) {
      const nxt = nextHand();
      if (!nxt) {
        box.append(el("p", {}, sheet.over ? "The game is over." : ""));
        if (sheet.rows.length) box.append(undoButton(sheet));
        return box;
      }
      S.draft = draftFrom("add", nxt.hand, null, sheet, false, nxt);
    }
    const d = S.draft;
    fillLastTricks(sheet, d);
    if (d.kind === "add") box.append(nextLine(sheet, d.next));
    else box.append(el("h2", {}, `Correct hand ${d.hand}`), el("p", { class: "help" }, `${d.size} card${d.size === 1 ? "" : "s"} · ${sheet.players[d.dealer]} dealt`));
    box.append(stepView(sheet, d));
    const tools = el("div", { class: "row sk-entry-tools" });
    if (d.step > 0 && !(d.kind === "fix" && d.steps[d.step] === "review")) tools.append(el("button", { type: "button", class: "small", onclick: () => { d.step -= 1; d.cursor = 0; render(); } }, "Back"));
    if (d.kind === "fix" || d.dirty) tools.append(el("button", { type: "button", class: "small", onclick: () => { S.draft = null; S.problem = null; render(); } }, d.kind === "fix" ? "Cancel the correction" : "Start the hand again"));
    if (d.kind === "add" && sheet.rows.length && !d.dirty) tools.append(undoButton(sheet));
    box.append(tools);
    return box;
  }

  /** @param {Sheet} sheet */
  function undoButton(sheet) {
    const last = sheet.rows.length + S.queue.items.filter((i) => i.kind === "add").length;
    return el(
      "button",
      {
        type: "button",
        class: "small sk-undo",
        onclick: () => {
          if (!S.undoArmed) {
            S.undoArmed = true;
            render();
            return;
          }
          S.undoArmed = false;
          S.draft = null;
          enqueue({ kind: "undo", hand: last, body: { id: newId(), hand: last } });
        },
      },
      S.undoArmed ? `Tap again to take back hand ${last}` : "Undo the last hand",
    );
  }

  /**
   * @param {Sheet} sheet
   * @param {Draft} d
   */
  function stepView(sheet, d) {
    const step = d.steps[d.step];
    const n = sheet.players.length;
    const view = el("div", { class: "sk-step", dataset: { step } });
    const advance = () => {
      d.dirty = true;
      d.step = d.jump ? d.steps.indexOf("review") : d.step + 1; // a change from the review goes back to it
      d.jump = false;
      d.cursor = 0;
      render();
    };
    if (step === "size") {
      append(view, el("h3", {}, "How many cards in this hand?"), numberButtons(1, Math.floor(52 / n), d.size, (v) => { d.size = v; advance(); }, "cards"));
    } else if (step === "call") {
      const sizes = d.next.call_sizes || [];
      const kind = el("input", { type: "text", id: "sk-call-kind", value: (d.call && d.call.kind) || "normal" });
      const mods = el("input", { type: "text", id: "sk-call-mods", value: d.call ? d.call.modifiers.join(", ") : "", placeholder: "e.g. blind_bid, nuloss" });
      append(view, 
        el("h3", {}, `${sheet.players[d.dealer]} calls the hand`),
        el("div", { class: "field" }, el("label", { for: "sk-call-kind" }, "Kind"), kind),
        el("div", { class: "field" }, el("label", { for: "sk-call-mods" }, "Modifiers"), mods),
        el("p", {}, "Cards:"),
        numberButtons(sizes[0] || 1, sizes[sizes.length - 1] || 13, d.call && d.call.size, async (v) => {
          const call = { size: v, kind: kind.value.trim() || "normal", modifiers: mods.value.split(",").map((m) => m.trim()).filter(Boolean) };
          const answer = await check({ bids: [], call });
          if (answer === false) return;
          d.call = call;
          d.size = v;
          if (answer && answer.next) {
            d.next = { ...d.next, ...answer.next };
            if (answer.next.misere) d.steps = d.steps.filter((x) => x !== "bids");
            if (answer.next.trick_points && !d.steps.includes("trick_winners")) d.steps.splice(d.steps.length - 1, 0, "trick_winners");
          }
          advance();
        }, "cards"),
      );
    } else if (step === "bids") {
      const order = d.order;
      const seat = order[d.cursor];
      /** The bids of the seats before `upto` in bidding order (null: not yet). */
      const madeBefore = (/** @type {(number | null)[]} */ bids, /** @type {number} */ upto) => sheet.players.map((_, s) => (order.indexOf(s) < upto ? bids[s] ?? null : null));
      const offer = d.offer && d.offer.seat === seat ? d.offer : null;
      if (!offer && !d.asked) {
        // The server says which bids this player may make (a correction, a bid taken back).
        d.asked = true;
        check({ hand: d.hand, bids: madeBefore(d.bids, d.cursor), call: d.call, trump: d.trump }).then((answer) => {
          if (answer && answer.bid_offer && S.draft === d) {
            d.offer = answer.bid_offer;
            render();
          }
        });
      }
      append(view,
        el("h3", {}, `${sheet.players[seat]} bids`),
        el("p", { class: "help" }, order.map((s, i) => `${sheet.players[s]}: ${i < d.cursor || d.kind === "fix" ? d.bids[s] ?? "…" : "…"}`).join(" · ")),
        bidButtons(offer, d, d.kind === "fix" || d.cursor < d.entered ? d.bids[seat] : null, async (v) => {
          if (d.busy) return; // a second tap while the bid is being checked
          const bids = d.bids.slice();
          bids[seat] = v;
          d.busy = true;
          const answer = await check({ hand: d.hand, bids: madeBefore(bids, d.cursor + 1), call: d.call, trump: d.trump });
          d.busy = false;
          if (answer === false) return;
          S.problem = null;
          d.bids = bids;
          d.dirty = true;
          d.offer = (answer && answer.bid_offer) || null;
          d.asked = Boolean(answer);
          d.entered = Math.max(d.entered, d.cursor + 1);
          if (d.cursor + 1 < order.length) {
            d.cursor += 1;
            render();
          } else advance();
        }),
      );
    } else if (gameStep(sheet, d, step)) {
      append(view, gameStepView(sheet, d, /** @type {Step} */ (gameStep(sheet, d, step)), advance));
    } else if (step === "trump") {
      append(view, 
        el("h3", {}, "Trump"),
        el(
          "div",
          { class: "sk-buttons" },
          SUITS.map(([word, symbol]) => el("button", { type: "button", class: `sk-big sk-suit sk-${word}`, "aria-pressed": String(d.trump === word), onclick: () => { d.trump = word; advance(); } }, `${symbol} ${word}`)),
          el("button", { type: "button", class: "sk-big", "aria-pressed": String(d.trump === "no trump"), onclick: () => { d.trump = "no trump"; advance(); } }, "no trump"),
          el("button", { type: "button", class: "sk-big", onclick: () => { d.trump = null; advance(); } }, "not entered"),
        ),
      );
    } else if (step === "tricks") {
      const order = d.order;
      const seat = order[d.cursor];
      const taken = order.slice(0, d.cursor).reduce((sum, s) => sum + (d.tricks[s] || 0), 0);
      append(view,
        el("h3", {}, `${sheet.players[seat]} took`),
        el("p", { class: "help" }, `${taken} of ${d.size} tricks so far · ` + order.map((s, i) => `${sheet.players[s]}: ${i < d.cursor ? d.tricks[s] : "…"}`).join(" · ")),
        numberButtons(0, d.size ?? 0, d.kind === "fix" ? d.tricks[seat] : null, (v) => {
          d.tricks[seat] = v;
          d.dirty = true;
          if (d.filled === seat) d.filled = null;
          if (d.cursor + 1 < order.length) {
            d.cursor += 1;
            render();
          } else advance();
        }, "tricks"),
      );
    } else if (step === "trick_winners") {
      const k = d.winners.length;
      if (k >= (d.size ?? 0)) {
        advance();
        return view;
      }
      append(view, 
        el("h3", {}, `Who won trick ${k + 1} of ${d.size}?`),
        el("div", { class: "sk-buttons" }, sheet.players.map((name, s) => el("button", { type: "button", class: "sk-big", onclick: () => { d.winners.push(s); if (d.winners.length >= (d.size ?? 0)) advance(); else render(); } }, name))),
      );
    } else {
      const change = (/** @type {string} */ target) => {
        d.step = d.steps.indexOf(target);
        d.cursor = 0;
        d.jump = true;
        d.asked = false;
        if (target === "trick_winners") d.winners = [];
        render();
      };
      append(view, el("h3", {}, d.kind === "fix" ? `Hand ${d.hand} as entered: change what was wrong` : "Check and save"), el("ul", { class: "sk-review" }, reviewLines(sheet, d).map(([line, target, filled]) =>
        el("li", { class: filled ? "sk-filled" : null },
          el("span", {}, line),
          target && d.steps.includes(target) ? el("button", { type: "button", class: "small sk-change", "aria-label": `Change: ${line}`, onclick: () => change(target) }, "Change") : null,
        ))));
      append(view, el("button", { type: "button", class: "primary sk-big sk-save", onclick: () => save(sheet, d) }, d.kind === "fix" ? `Save the correction of hand ${d.hand}` : `Save hand ${d.hand}`));
    }
    return view;
  }

  /**
   * The game's own steps of a hand (the server's: the next hand's, else the sheet's).
   * @param {Sheet} sheet
   * @param {Draft} d
   * @returns {Step[]}
   */
  function gameSteps(sheet, d) {
    return (d.next.steps && d.next.steps.length ? d.next.steps : sheet.steps) || [];
  }

  /**
   * The game's own step called `name`, if it is one.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {string} name
   * @returns {Step | undefined}
   */
  function gameStep(sheet, d, name) {
    return gameSteps(sheet, d).find((step) => step.name === name);
  }

  /**
   * One of the game's own steps, drawn from its kind as the server describes it.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {Step} step
   * @param {() => void} advance
   * @returns {(Element | null)[]}
   */
  function gameStepView(sheet, d, step, advance) {
    const names = sheet.players;
    const value = d.fields[step.name];
    /** @param {string} id */
    const typed = (id) => /** @type {HTMLInputElement | null} */ (root.querySelector(`#${id}`))?.value || "";
    /**
     * Each seat's number, as inputs from `counted.low` to `counted.high`.
     * @param {Step} counted
     * @param {(name: string) => string} label
     */
    const numberInputs = (counted, label) =>
      names.map((name, s) =>
        el("div", { class: "field" }, el("label", { for: `sk-${counted.name}-${s}` }, label(name)), el("input", { type: "number", min: String(counted.low), max: String(counted.high), id: `sk-${counted.name}-${s}`, value: String((d.fields[counted.name] || [])[s] ?? counted.low) })),
      );
    /** @param {Step} counted */
    const readNumbers = (counted) => names.map((_, s) => Number(typed(`sk-${counted.name}-${s}`)) || 0);
    if (step.kind === "choice") {
      // The choices the rules offer (the server's list); a corrected hand's own is kept in it.
      const choices = [...step.choices];
      if (value && !choices.includes(value)) choices.push(value);
      return [el("h3", {}, step.question), el("div", { class: "sk-buttons" }, choices.map((c) => el("button", { type: "button", class: "sk-big sk-word", "aria-pressed": String(value === c), onclick: () => { d.fields[step.name] = c; advance(); } }, c.replaceAll("_", " "))))];
    }
    if (step.kind === "seat_text") {
      const seatField = step.seat_field || `${step.name}_seat`;
      const text = el("input", { type: "text", id: `sk-${step.name}`, value: value || "", placeholder: step.hint, maxlength: "10" });
      return [
        el("h3", {}, step.question),
        el("div", { class: "field" }, el("label", { for: `sk-${step.name}` }, step.label), text),
        el(
          "div",
          { class: "sk-buttons" },
          names.map((name, s) => el("button", { type: "button", class: "sk-big", "aria-pressed": String(d.fields[seatField] === s), onclick: () => { d.fields[step.name] = text.value.trim() || null; d.fields[seatField] = s; advance(); } }, name)),
          step.skip ? el("button", { type: "button", class: "sk-big sk-word", onclick: () => { d.fields[step.name] = null; d.fields[seatField] = null; d.tricks = new Array(names.length).fill(0); d.step = d.steps.indexOf("review"); d.dirty = true; render(); } }, step.skip) : null,
        ),
      ];
    }
    const count = step.count;
    const next = el("button", {
      type: "button",
      class: "primary sk-big",
      onclick: () => {
        if (step.kind === "seat_number") d.fields[step.name] = readNumbers(step);
        else d.fields[step.name] = names.map((_, s) => typed(`sk-${step.name}-${s}`).split(",").map((x) => x.trim()).filter(Boolean));
        if (count) d.fields[count.name] = readNumbers(count);
        advance();
      },
    }, "Next");
    if (step.kind === "seat_number") return [el("h3", {}, step.question), ...numberInputs(step, (name) => name), next];
    const hint = step.choices.length ? `${step.choices.join(" / ")} (several: with commas)` : "";
    const inputs = names.map((name, s) =>
      el("div", { class: "field" }, el("label", { for: `sk-${step.name}-${s}` }, name), el("input", { type: "text", id: `sk-${step.name}-${s}`, value: ((value || [])[s] || []).join(", "), placeholder: hint })),
    );
    return [el("h3", {}, step.question), ...inputs, ...(count ? numberInputs(count, (name) => `${name}: ${count.label}`) : []), next];
  }

  /**
   * The review's line of one of the game's own steps.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {Step} step
   * @returns {string}
   */
  function reviewLine(sheet, d, step) {
    const names = sheet.players;
    const value = d.fields[step.name];
    const title = `${step.name.charAt(0).toUpperCase()}${step.name.slice(1).replaceAll("_", " ")}`;
    if (step.kind === "seat_text") {
      const seat = d.fields[step.seat_field || `${step.name}_seat`];
      return value && typeof seat === "number" ? `${step.label}: ${names[seat]} ${value}` : step.skip || `${step.label}: none`;
    }
    if (step.kind === "choice") return `${step.label}: ${String(value || "").replaceAll("_", " ")}`;
    if (step.kind === "seat_number") return `${title}: ${names.map((name, s) => `${name} ${(value || [])[s] ?? step.low}`).join(", ")}`;
    const count = step.count;
    const counts = count ? d.fields[count.name] || [] : [];
    return `${title}: ${names.map((name, s) => `${name} ${((value || [])[s] || []).join(", ") || "…"}${count ? ` (${count.label} ${counts[s] ?? 0})` : ""}`).join("; ")}`;
  }

  /**
   * The bids the server offers this bidder as big buttons, the ones the rules refuse it
   * now shown disabled with the reason; before the server has said (offline), from the
   * lowest bid it offered last up to the hand size (the server checks the hand when it
   * is saved).
   * @param {BidOffer | null} offer
   * @param {Draft} d
   * @param {number | null} chosen
   * @param {(v: number) => void} pick
   */
  function bidButtons(offer, d, chosen, pick) {
    if (!offer) {
      const known = S.sheet && S.sheet.next && S.sheet.next.bid_offer;
      const low = known && known.bids.length ? known.bids[0] : 0;
      return numberButtons(low, d.size ?? 0, chosen, pick, "bid");
    }
    const forbidden = new Map(offer.forbidden.map((f) => [f.bid, f.reason]));
    const values = [...offer.bids, ...forbidden.keys()].sort((a, b) => a - b);
    const box = el("div", { class: "sk-buttons sk-numbers", role: "group", "aria-label": "bid" });
    for (const v of values) {
      const why = forbidden.get(v);
      const button = el("button", { type: "button", class: why ? "sk-big sk-num sk-forbidden" : "sk-big sk-num", "aria-pressed": String(chosen === v), disabled: Boolean(why), title: why || null, dataset: { value: String(v) } }, String(v));
      if (!why) button.addEventListener("click", () => pick(v));
      box.append(button);
    }
    return el("div", { class: "sk-bids" }, box, offer.forbidden.map((f) => el("p", { class: "sk-forbidden-why" }, `Not ${f.bid}: ${f.reason}`)));
  }

  /**
   * @param {number} low
   * @param {number} high
   * @param {number | null | undefined} chosen
   * @param {(v: number) => void} pick
   * @param {string} what
   */
  function numberButtons(low, high, chosen, pick, what) {
    const box = el("div", { class: "sk-buttons sk-numbers", role: "group", "aria-label": what });
    for (let v = low; v <= high; v += 1) {
      const button = el("button", { type: "button", class: "sk-big sk-num", "aria-pressed": String(chosen === v), dataset: { value: String(v) } }, String(v));
      button.addEventListener("click", () => pick(v));
      box.append(button);
    }
    return box;
  }

  /**
   * Check bids (or a call) with the server: the answer, false if refused, null if offline.
   * @param {Record<string, unknown>} body
   * @returns {Promise<{next?: Next | null, bid_offer?: BidOffer | null} | false | null>}
   */
  async function check(body) {
    try {
      const answer = await api(`${path}/check`, { method: "POST", body, token: page.token });
      S.problem = null;
      return answer;
    } catch (exc) {
      if (exc instanceof ApiError && exc.status >= 400 && exc.status < 500 && exc.status !== 429) {
        S.problem = { title: "Not allowed", detail: exc.detail, rule: ruleOf(exc) };
        render();
        return false;
      }
      return null; // offline: the server checks the hand when it is saved
    }
  }

  /**
   * The review's lines: [text, the step that changes it, whether a value was filled in].
   * @param {Sheet} sheet
   * @param {Draft} d
   * @returns {[string, string | null, boolean][]}
   */
  function reviewLines(sheet, d) {
    /** @type {[string, string | null, boolean][]} */
    const lines = [];
    const names = sheet.players;
    if (d.call) lines.push([`Call: ${d.call.size} cards, ${d.call.kind}${d.call.modifiers.map((m) => ` + ${m}`).join("")}`, "call", false]);
    for (const step of gameSteps(sheet, d)) {
      if (d.steps.includes(step.name)) lines.push([reviewLine(sheet, d, step), step.name, false]);
    }
    if (d.steps.includes("bids")) lines.push([`Bids: ${names.map((name, s) => `${name} ${d.bids[s] ?? 0}`).join(", ")}`, "bids", false]);
    if (d.steps.includes("trump")) lines.push([`Trump: ${d.trump ? suitWord(d.trump) : "not entered"}`, "trump", false]);
    const filled = d.filled !== null && d.filled !== undefined;
    lines.push([`Tricks: ${names.map((name, s) => `${name} ${d.tricks[s] ?? 0}${s === d.filled ? " (filled in: the only count that adds up)" : ""}`).join(", ")}`, "tricks", filled]);
    if (d.winners.length) lines.push([`Trick winners: ${d.winners.map((s) => names[s]).join(", ")}`, "trick_winners", false]);
    return lines;
  }

  /**
   * @param {Sheet} sheet
   * @param {Draft} d
   */
  function save(sheet, d) {
    const body = {
      id: newId(),
      hand: d.hand,
      bids: d.steps.includes("bids") ? sheet.players.map((_, s) => d.bids[s] ?? null) : [],
      tricks: sheet.players.map((_, s) => d.tricks[s] ?? 0),
      trick_winners: d.winners,
      trump: d.trump,
      call: d.call,
      ...d.fields,
    };
    S.draft = null;
    S.notice = "";
    S.changes = [];
    enqueue({ kind: d.kind, hand: d.hand, body, front: d.retry || S.queue.paused });
  }

  return { entryPanel };
}
