// @ts-check
// The scorekeeper's sheet as drawn (scorekeeper.js keeps it): the table of hands with
// their totals and Set/Over/Perfect counts, the chart of the totals, and the share
// panel (the read-only link, the keeper's edit link with its QR code, the exports).

import { api } from "./api.js";
import { copyText, el, toast } from "./dom.js";
import { draftFrom, signed, suitWord } from "./scorekeeper-draft.js";
import { qrSvg } from "./scorekeeper-qr.js";
import { errorWords, keepSheet, keptSheet } from "./scorekeeper-start.js";

/** @typedef {import("./scorekeeper-draft.js").Sheet} Sheet */
/** @typedef {import("./scorekeeper-draft.js").State} State */

const COLOURS = ["#1f5fbf", "#c4161c", "#157a2c", "#8a4fbf", "#c77800", "#0f8a8a", "#6b6b6b", "#b5367a"];

/**
 * The read-only link of a sheet.
 * @param {string} id
 * @param {string} key
 */
export function viewLink(id, key) {
  return `${location.origin}${location.pathname}#/score/${encodeURIComponent(id)}?view=${encodeURIComponent(key)}`;
}

/**
 * The edit link of a sheet: whoever opens it keeps the sheet too.
 * @param {string} id
 * @param {string} key
 */
export function editLink(id, key) {
  return `${location.origin}${location.pathname}#/score/${encodeURIComponent(id)}?edit=${encodeURIComponent(key)}`;
}

/**
 * What the sheet's view asks of the page that keeps it.
 * @typedef {object} SheetPage
 * @property {State} S the page's state
 * @property {HTMLElement} root the page
 * @property {string} sheetId
 * @property {string} path the sheet's API path
 * @property {{via?: string} | null} kept what this browser keeps of the sheet
 * @property {boolean} readOnly whether the page only follows the sheet
 * @property {string | null} token this browser's edit token or key
 * @property {string | null} key the sheet's view key, once known
 * @property {() => void} render draw the page again
 */

/**
 * The sheet's table, chart and share panel on the page `page`.
 * @param {SheetPage} page
 */
export function sheetParts(page) {
  const { S, root, sheetId, path, kept, render } = page;

  /** @param {Sheet} sheet */
  function sheetTable(sheet) {
    const names = sheet.players;
    const changed = new Set(S.changes.map((c) => `${c.hand}:${c.seat}`));
    const table = el("table", { class: "sk-sheet" });
    table.append(
      el("caption", {}, `${sheet.name}: ${names.join(", ")}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "sk-hand" }, "Hand"), el("th", { scope: "col" }, "Deal"), names.map((name) => el("th", { scope: "col" }, name)))),
    );
    const body = el("tbody");
    for (const row of sheet.rows) {
      const deal = [`${row.hand_size} · ${names[row.dealer]}`, row.trump ? suitWord(row.trump) : "", row.special || ""].filter(Boolean).join(" · ");
      body.append(
        el(
          "tr",
          { dataset: { hand: String(row.hand) } },
          el("th", { scope: "row", class: "sk-hand" }, String(row.hand), page.readOnly ? null : el("button", { type: "button", class: "small sk-fix sk-noprint", "aria-label": `Correct hand ${row.hand}`, onclick: () => { S.draft = draftFrom("fix", row.hand, row.entry, sheet, false); S.problem = null; render(); const box = root.querySelector(".sk-entry"); if (box) box.scrollIntoView({ block: "start" }); } }, "Correct")),
          el("td", { class: "sk-deal" }, deal),
          names.map((_, s) => {
            const outcome = row.outcomes ? row.outcomes[s] : null;
            const classes = ["sk-cell", outcome ? `sk-${outcome}` : "", changed.has(`${row.hand}:${s}`) ? "sk-changed" : ""].filter(Boolean).join(" ");
            const bidTricks = row.bids ? `${row.bids[s]}/${row.tricks[s]}` : `${row.tricks[s]} tr`;
            return el("td", { class: classes }, el("span", { class: "sk-bt" }, bidTricks), " ", el("span", { class: "sk-score" }, signed(row.scores[s])), " ", el("strong", { class: "sk-total" }, String(row.totals[s])));
          }),
        ),
      );
    }
    for (const item of S.queue.items.filter((i) => i.kind !== "undo")) {
      body.append(el("tr", { class: "sk-waiting" }, el("th", { scope: "row" }, String(item.hand)), el("td", { colspan: String(names.length + 1) }, `${item.kind === "fix" ? "correction " : ""}waiting to be saved: tricks ${item.body.tricks.join(", ")}`)));
    }
    const foot = el("tfoot");
    foot.append(el("tr", { class: "sk-totals" }, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, "Totals"), sheet.totals.map((t) => el("td", {}, el("strong", {}, String(t))))));
    if (sheet.has_bids) {
      for (const [letter, word] of [["S", "Set"], ["O", "Over"], ["P", "Perfect"]]) {
        foot.append(el("tr", { class: `sk-count sk-count-${letter}` }, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, word), sheet.counts.map((c) => el("td", {}, String(c[letter])))));
      }
    }
    if (sheet.chips) foot.append(el("tr", {}, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, `Stacks (pot ${sheet.chips.pot})`), sheet.chips.stacks.map((c) => el("td", {}, String(c)))));
    table.append(body, foot);
    // A wide sheet scrolls sideways: the keyboard reaches the box too (a named region).
    return el("div", { class: "sk-scroll", tabindex: "0", role: "region", "aria-label": `Score sheet: ${names.join(", ")}` }, table);
  }

  /** @param {Sheet} sheet */
  function chartBox(sheet) {
    const box = el("div", { class: "sk-chart sk-noprint" });
    if (!sheet.rows.length) return box;
    const series = sheet.rows.map((r) => r.totals);
    import("./scorecard.js")
      .then((mod) => box.append(mod.totalsChart(series, sheet.players)))
      .catch(() => box.append(ownChart(series, sheet.players)));
    return box;
  }

  /**
   * @param {Sheet} sheet
   */
  function sharePanel(sheet) {
    const box = el("section", { class: "panel sk-share sk-noprint" });
    if (!page.readOnly && page.key) {
      const link = viewLink(sheetId, page.key);
      box.append(
        el("h2", {}, "Let the others follow"),
        el("p", { class: "help" }, "This link shows the sheet read-only and follows it as hands are entered."),
        el("div", { class: "row" }, el("input", { type: "text", readonly: true, value: link, class: "sk-view-link", "aria-label": "Read-only link" }), el("button", { type: "button", onclick: async () => toast((await copyText(link)) ? "Link copied." : "Copy the link by hand.") }, "Copy")),
      );
    }
    if (!page.readOnly && sheet.owner) box.append(editLinkPanel(sheet));
    else if (!page.readOnly && kept && kept.via === "link") box.append(el("p", { class: "help" }, "You keep this sheet with an edit link: the keeper may replace or revoke it."));
    /**
     * @param {string} fmt
     * @param {string} label
     */
    const exportLink = (fmt, label) => el("a", { class: "button", href: `${path}/export.${fmt}?view=${encodeURIComponent(page.key || "")}`, download: `${sheet.game}-${sheetId}.${fmt}` }, label);
    box.append(
      el("h2", {}, "Export and print"),
      el("div", { class: "row" }, exportLink("csv", "Export CSV"), exportLink("json", "Export JSON"), exportLink("md", "Export Markdown"), el("button", { type: "button", onclick: () => window.print() }, "Print")),
      el("p", {}, el("a", { href: "#/score" }, "Start or import another sheet")),
    );
    return box;
  }

  /**
   * The keeper's edit link: made, shown with its QR code, made anew or revoked.
   * @param {Sheet} sheet
   */
  function editLinkPanel(sheet) {
    const box = el("div", { class: "sk-edit-link" });
    /** @param {boolean} make */
    const change = async (make) => {
      try {
        const answer = await api(`${path}/edit-link`, { method: make ? "POST" : "DELETE", token: page.token });
        S.editKey = make ? answer.edit_key : null;
        const mine = keptSheet(sheetId);
        if (mine) keepSheet(sheetId, { ...mine, editKey: S.editKey });
        if (S.sheet) S.sheet = { ...S.sheet, edit_link: make };
        toast(make ? "A new edit link is made: any older one no longer edits." : "The edit link is revoked.");
      } catch (exc) {
        toast(`Not done: ${errorWords(exc)}`);
      }
      render();
    };
    box.append(
      el("h2", {}, "Let another phone keep score"),
      el("p", { class: "help" }, "Whoever opens the edit link can enter and correct hands, as you can. Share it only with the person taking over; the others follow with the read-only link."),
    );
    if (S.editKey && sheet.edit_link) {
      const link = editLink(sheetId, S.editKey);
      /** @type {Element} */
      let code;
      try {
        code = qrSvg(link, "QR code of the edit link");
      } catch {
        code = el("p", { class: "help" }, "The link is too long for a QR code: copy it.");
      }
      box.append(
        el("div", { class: "row" }, el("input", { type: "text", readonly: true, value: link, class: "sk-edit-link-text", "aria-label": "Edit link" }), el("button", { type: "button", onclick: async () => toast((await copyText(link)) ? "Edit link copied." : "Copy the link by hand.") }, "Copy")),
        el("figure", { class: "sk-qr-box" }, code, el("figcaption", { class: "help" }, "Scan it with the other phone's camera.")),
      );
    } else if (sheet.edit_link) {
      box.append(el("p", {}, "An edit link is out. Make a new one to show it here: the old one then stops editing."));
    }
    box.append(
      el("div", { class: "row" },
        el("button", { type: "button", class: "sk-make-link", onclick: () => change(true) }, sheet.edit_link ? "Make a new link" : "Make an edit link"),
        sheet.edit_link ? el("button", { type: "button", class: "sk-revoke-link", onclick: () => change(false) }, "Revoke the edit link") : null,
      ),
    );
    return box;
  }

  return { sheetTable, chartBox, sharePanel };
}

/**
 * A small line chart of the totals after each hand (used if scorecard.js is missing).
 * @param {number[][]} series
 * @param {string[]} names
 */
function ownChart(series, names) {
  const NS = "http://www.w3.org/2000/svg";
  /**
   * @param {string} tag
   * @param {Record<string, string | number>} attrs
   */
  const svg = (tag, attrs) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const points = [names.map(() => 0), ...series];
  const values = points.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(low + 1, ...values);
  /** @param {number} k */
  const x = (k) => 30 + (k * 320) / Math.max(1, points.length - 1);
  /** @param {number} v */
  const y = (v) => 10 + ((high - v) * 150) / (high - low);
  const chart = svg("svg", { viewBox: "0 0 360 170", role: "img", class: "sk-own-chart" });
  chart.setAttribute("aria-label", `Totals after each hand: ${names.map((n, i) => `${n} ${points[points.length - 1][i]}`).join(", ")}`);
  names.forEach((_, i) => {
    chart.append(svg("polyline", { points: points.map((p, k) => `${x(k).toFixed(1)},${y(p[i]).toFixed(1)}`).join(" "), fill: "none", stroke: COLOURS[i % COLOURS.length], "stroke-width": 2 }));
  });
  const legend = el("ul", { class: "sk-legend" }, names.map((name, i) => el("li", { style: `color:${COLOURS[i % COLOURS.length]}` }, name)));
  return el("figure", {}, chart, legend);
}
