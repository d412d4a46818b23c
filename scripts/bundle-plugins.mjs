// esbuild plugins every build of msgctl's code uses (dist/, the single binary's bundles).
import { readFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * zod's English error messages only. zod's namespace (`z`) exports every locale it ships
 * (`z.locales`, about 300 KB: a fifth of what `serve` loads), so no bundler can drop them while
 * `z` is used; msgctl never switches zod's locale, and zod registers English itself.
 */
export const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * libphonenumber's metadata (150 KB) as `JSON.parse` of a string instead of a JavaScript object
 * literal: the same object, which V8 reads about twice as fast as it compiles the literal (a
 * string is scanned, not parsed into syntax), at every start of `serve`.
 */
export const phoneMetadataAsJson = {
  name: "phone-metadata-as-json",
  setup(build) {
    build.onLoad({ filter: /[\\/]libphonenumber-js[\\/]metadata\.[a-z]+\.json\.js$/ }, (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(readFileSync(args.path.replace(/\.js$/, ""), "utf8"))});`,
      loader: "js",
    }));
  },
};
