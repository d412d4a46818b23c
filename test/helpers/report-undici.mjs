// Preloaded into a CLI process (NODE_OPTIONS=--import): says on stderr, at exit, whether Node's
// fetch implementation (undici) was loaded. A client command should not need it.
process.on("exit", () => {
  if (process.moduleLoadList.some((name) => name.includes("undici"))) process.stderr.write("undici was loaded\n");
});
