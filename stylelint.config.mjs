// stylelint for static/css (`make lint`): stylelint-config-standard, with the few rules that
// clash with how these stylesheets are written tuned below, each with its reason, and the rules
// that keep the palette and the breakpoints the only ones.

// The widths the layout changes at (named in palette.css): a phone, a roomy phone, a wide screen.
const BREAKPOINTS = {
  "max-width": ["40rem"],
  "min-width": ["24rem", "60rem"],
};

// Every way of writing a colour but a custom property: allowed in palette.css alone.
const COLOUR_FUNCTIONS = [
  "rgb",
  "rgba",
  "hsl",
  "hsla",
  "hwb",
  "lab",
  "lch",
  "oklab",
  "oklch",
  "color",
  "color-mix",
  "light-dark",
];

/** @type {import("stylelint").Config} */
export default {
  extends: ["stylelint-config-standard"],
  plugins: ["stylelint-value-no-unknown-custom-properties"],
  rules: {
    // The classes are BEM's: block, block__element, block--modifier (seat__name, card--red).
    "selector-class-pattern": [
      "^[a-z][a-z0-9]*(-[a-z0-9]+)*(__[a-z0-9]+(-[a-z0-9]+)*)?(--[a-z0-9]+(-[a-z0-9]+)*)?$",
      { message: (selector) => `Expected class selector "${selector}" to be BEM in kebab-case` },
    ],
    // (max-width: 40rem), not (width <= 40rem): Safari before 16.4 ignores a media query in the
    // range syntax, and would lose the phone's layout on a site that otherwise works there.
    "media-feature-range-notation": "prefix",
    // The rules are ordered by the part of the page they draw and by what they are for, each
    // refinement after what it refines, not by specificity: a selector of higher specificity
    // earlier in a file is the cascade as written.
    "no-descending-specificity": null,
    // A grid's named areas read as a picture of the layout only in the longhands.
    "declaration-block-no-redundant-longhand-properties": [
      true,
      { ignoreShorthands: ["grid-template"] },
    ],

    // No rule inside a rule: these stylesheets nest none, so one is a block left open.
    "max-nesting-depth": 0,

    // The breakpoints above, and no other media feature.
    "media-feature-name-allowed-list": Object.keys(BREAKPOINTS),
    "media-feature-name-value-allowed-list": BREAKPOINTS,

    // Colours are the palette's custom properties, every one of them defined.
    "color-no-hex": true,
    "color-named": "never",
    "function-disallowed-list": COLOUR_FUNCTIONS,
    "csstools/value-no-unknown-custom-properties": [
      true,
      { importFrom: ["static/css/palette.css"] },
    ],
  },
  overrides: [
    {
      // The palette: custom properties on :root, where each colour is written once for its job.
      files: ["static/css/palette.css"],
      rules: {
        "color-no-hex": null,
        "function-disallowed-list": null,
        "property-allowed-list": ["/^--/"],
        "selector-disallowed-list": ["/^(?!:root$)/"],
      },
    },
  ],
};
