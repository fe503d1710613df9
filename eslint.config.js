// ESLint for static/*.js (make lint-js): plain browser scripts, each one function run
// as it loads ("use strict" inside), in ES5 syntax with the browser's newer objects
// (fetch, Promise, URL). Its recommended rules, but for a catch's unused binding, which
// ES5 requires (`catch (e) { return false; }`). htmx.min.js is htmx's own, unchanged.
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["static/htmx.min.js"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: 5,
      sourceType: "script",
      globals: { ...globals.es2015, ...globals.browser },
    },
    rules: { "no-unused-vars": ["error", { caughtErrors: "none" }] },
  },
  {
    files: ["static/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
