// @ts-check
// Joining clubs (docs/clubs.md): #/clubs (your clubs, and starting one) and
// #/club-invite/CODE (accepting an invitation; a guest signs up or logs in there
// first). club.js answers both routes (it passes these on).

import { csrfToken, showAccountLink } from "./account-session.js";
import { credentialsForm } from "./account.js";
import { api, errorText, getJSON } from "./api.js";
import { clear, el } from "./dom.js";
import { clubStyles, dayText, signInPanel, errorPanel } from "./club-parts.js";

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
    el("p", { class: "help", id: "club-toml-help" }, "A ruleset file changes a shipped game: ", el("code", {}, "extends = "), " the game's id, then only what differs, such as a shorter schedule (see the documentation's rulesets page)."),
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
