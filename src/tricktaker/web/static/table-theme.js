// @ts-check
// The reader's choices that every page shares: the theme (light, dark, high contrast, or
// "auto", which follows the system's prefers-color-scheme) and the table's sound (off
// unless switched on). Both are remembered in this browser (storage.js). Sounds are tiny
// beeps made by WebAudio in code: no file is fetched.
//
// Imported by index.html, so the stored theme is applied before the page draws, and the
// top bar's theme menu (#theme-choice) is wired here.

import { readFlag, readText, writeFlag, writeText } from "./storage.js";

/** @typedef {"auto" | "light" | "dark" | "contrast"} Theme */

/** @type {Theme[]} */
export const THEMES = ["auto", "light", "dark", "contrast"];

/** @type {Record<Theme, string>} */
export const THEME_NAMES = { auto: "Auto", light: "Light", dark: "Dark", contrast: "High contrast" };

/**
 * The theme chosen in this browser ("auto" when none).
 * @returns {Theme}
 */
export function chosenTheme() {
  const kept = readText("theme");
  return THEMES.includes(/** @type {Theme} */ (kept)) ? /** @type {Theme} */ (kept) : "auto";
}

/**
 * Draw the page in `theme` and remember it ("auto" follows the system).
 * @param {Theme} theme
 * @param {boolean} [remember]
 */
export function applyTheme(theme, remember = true) {
  const root = document.documentElement;
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
  if (remember) writeText("theme", theme === "auto" ? null : theme);
}

/** Wire the top bar's theme menu (when the page has one) to the stored theme. */
export function wireThemeMenu() {
  const menu = document.getElementById("theme-choice");
  if (!(menu instanceof HTMLSelectElement)) return;
  if (!menu.options.length) {
    for (const theme of THEMES) menu.append(new Option(THEME_NAMES[theme], theme));
  }
  menu.value = chosenTheme();
  menu.addEventListener("change", () => applyTheme(/** @type {Theme} */ (menu.value)));
}

/** Whether the table's sounds are on (off unless the reader switched them on). */
export function soundOn() {
  return readFlag("sound", false);
}

/**
 * Switch the table's sounds on or off (remembered).
 * @param {boolean} on
 */
export function chooseSound(on) {
  writeFlag("sound", on);
}

/** @type {AudioContext | null} */
let audio = null;

/**
 * A tiny beep when sound is on: "turn" (your turn), "card" (a card played), "trick" (a
 * trick taken). Nothing happens while sound is off or the browser has no WebAudio.
 * @param {"turn" | "card" | "trick"} kind
 */
export function beep(kind) {
  if (!soundOn()) return;
  const Context = window.AudioContext;
  if (!Context) return;
  try {
    audio = audio ?? new Context();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = kind === "card" ? "triangle" : "sine";
    tone.frequency.value = kind === "turn" ? 880 : kind === "trick" ? 523 : 330;
    const length = kind === "card" ? 0.06 : 0.14;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.12, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + length + 0.02);
  } catch {
    // no sound device: stay quiet
  }
}

/** Whether the reader asked for less motion (then nothing on the table moves). */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

applyTheme(chosenTheme(), false);
wireThemeMenu();
