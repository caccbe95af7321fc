// @ts-check
// ESLint's flat config for the browser client (src/tricktaker/web/static/*.js: plain ES
// modules run as they are, no build step). `make jscheck` runs it, with `tsc` for types.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/**", ".venv/**", "build/**", "dist/**", "test-artifacts/**"],
  },
  js.configs.recommended,
  {
    files: ["src/tricktaker/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
    rules: {
      // Beyond the recommended set: rules that catch real bugs, not style.
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",
      "no-shadow": ["error", { builtinGlobals: false }],
      "no-use-before-define": ["error", { functions: false, classes: true, variables: false }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constant-binary-expression": "error",
      "no-promise-executor-return": "error",
      "no-await-in-loop": "off",
      "require-atomic-updates": "off",
      "array-callback-return": ["error", { checkForEach: true }],
      "default-case-last": "error",
      "no-new-wrappers": "error",
      "no-throw-literal": "error",
      "no-return-assign": "error",
      "no-sequences": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
      "no-restricted-globals": [
        "error",
        {
          name: "localStorage",
          message: "keep things through storage.js (readText/writeText/readJson/writeJson...)",
        },
        {
          name: "sessionStorage",
          message: "keep things through storage.js",
        },
        { name: "event", message: "use the handler's own event argument" },
        { name: "name", message: "window.name is rarely what is meant" },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "window",
          property: "localStorage",
          message: "keep things through storage.js",
        },
      ],
      // Cards are written in one place: cards.js (cardText, cardName, SUITS...).
      "no-restricted-syntax": [
        "error",
        {
          selector: "Literal[value=/[\\u2660-\\u2667]/]",
          message: "a suit symbol belongs in cards.js: use cardText, cardsInText or SUITS",
        },
        {
          selector: "TemplateElement[value.cooked=/[\\u2660-\\u2667]/]",
          message: "a suit symbol belongs in cards.js: use cardText, cardsInText or SUITS",
        },
      ],
    },
  },
  {
    // cards.js is the one module that writes cards.
    files: ["src/tricktaker/web/static/cards.js"],
    rules: {
      "no-restricted-syntax": "off",
    },
  },
  {
    // storage.js is the one module that touches localStorage.
    files: ["src/tricktaker/web/static/storage.js"],
    rules: {
      "no-restricted-globals": "off",
      "no-restricted-properties": "off",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
];
