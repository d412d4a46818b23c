/** Style sheets are bundled by esbuild (scripts/build-inspector.mjs). */
declare module "*.css";
